import { CanAccess, useCustomMutation } from '@refinedev/core';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Space, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MANAGERS } from '../../../domain/access';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { API_URL } from '../../providers/dataProvider';
import { errorText } from '../../providers/errors';
import { useRole } from '../lessons/status';
import { useMoneyRefresh } from './refresh';
import type { Contract } from './types';

const STATUS_COLOR: Record<string, string> = { ACTIVE: 'green', WITHDRAWN: 'orange', COMPLETED: 'default' };

interface WithdrawValues {
  on: Dayjs;
  reason: string;
}

/** The date and reason of a withdrawal, asked in a dialog; `onSubmit` sends them (YYYY-MM-DD). */
export function WithdrawDialog({
  open,
  title,
  help,
  okText,
  cancelText,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  help?: React.ReactNode;
  okText?: string;
  cancelText?: string;
  onSubmit(values: { on: string; reason: string }): Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WithdrawValues>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const values = await form.validateFields();
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ on: values.on.format('YYYY-MM-DD'), reason: values.reason.trim() });
      form.resetFields();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={title}
      okText={okText ?? t('contractLifecycle.confirm')}
      cancelText={cancelText ?? t('contractLifecycle.cancel')}
      okButtonProps={{ danger: true, loading: busy }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {help}
        {error && <Alert type="error" message={error} />}
        <Form form={form} layout="vertical" initialValues={{ on: dayjs() }}>
          <Form.Item name="on" label={t('contractLifecycle.on')} rules={[{ required: true, message: t('contractLifecycle.required') }]}>
            <DatePicker format="DD/MM/YYYY" allowClear={false} />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('contractLifecycle.reason')}
            rules={[{ required: true, whitespace: true, message: t('contractLifecycle.required') }, { max: 500 }]}
          >
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Space>
    </Modal>
  );
}

/**
 * A contract's lifecycle at the top of its status: its status, discount and withdrawal, the
 * credit to refund, and "Withdraw" (office) or "Undo withdrawal" (ADMIN).
 */
export function ContractLifecycle({ contract, credit }: { contract: Contract; credit: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const role = useRole();
  const refresh = useMoneyRefresh();
  const { mutateAsync } = useCustomMutation();
  const [open, setOpen] = useState(false);
  const status = String(contract.status ?? 'ACTIVE');
  const discount = Number(contract.discount_percent ?? 0);
  const post = async (action: 'withdraw' | 'reinstate', values: Record<string, unknown>) => {
    await mutateAsync({
      url: `${API_URL}/contracts/${contract.id}/${action}`,
      method: 'post',
      values: { ...values, version: contract.version },
      successNotification: false,
      errorNotification: false,
    });
    await refresh();
  };
  const reinstate = () =>
    modal.confirm({
      title: t('contractLifecycle.reinstate'),
      content: t('contractLifecycle.reinstateConfirm'),
      okText: t('contractLifecycle.reinstate'),
      cancelText: t('contractLifecycle.cancel'),
      onOk: async () => {
        try {
          await post('reinstate', {});
          message.success(t('contractLifecycle.reinstated'));
        } catch (e) {
          message.error(errorText(e));
        }
      },
    });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Tag color={STATUS_COLOR[status]} data-contract-status={status}>
          {t(`enums.${status}`)}
        </Tag>
        {discount > 0 && <Tag color="purple">{t('contractLifecycle.discount', { percent: discount })}</Tag>}
        {status === 'WITHDRAWN' && typeof contract.withdrawn_on === 'string' && (
          <span>
            {t('contractLifecycle.withdrawnOn', { date: formatDate(String(contract.withdrawn_on)), reason: String(contract.withdrawal_reason ?? '') })}
          </span>
        )}
        {status === 'ACTIVE' && (
          <CanAccess resource="contracts" action="edit">
            <Button danger size="small" onClick={() => setOpen(true)}>
              {t('contractLifecycle.withdraw')}
            </Button>
          </CanAccess>
        )}
        {status === 'WITHDRAWN' && MANAGERS.includes(role) && (
          <Button size="small" onClick={reinstate}>
            {t('contractLifecycle.reinstate')}
          </Button>
        )}
      </Space>
      {credit > 0 && <Alert type="warning" showIcon message={t('contractLifecycle.creditNote', { amount: formatMoney(credit) })} />}
      <WithdrawDialog
        open={open}
        title={t('contractLifecycle.withdrawTitle')}
        help={<Alert type="info" message={t('contractLifecycle.withdrawHelp')} />}
        onClose={() => setOpen(false)}
        onSubmit={async (values) => {
          await post('withdraw', values);
          setOpen(false);
          message.success(t('contractLifecycle.withdrawn'));
        }}
      />
    </Space>
  );
}
