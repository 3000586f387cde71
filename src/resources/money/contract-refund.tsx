import { CanAccess, useCustomMutation } from '@refinedev/core';
import { Alert, App, Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../engine/fields/format';
import { API_URL } from '../../providers/dataProvider';
import { errorText } from '../../providers/errors';
import { useMoneyRefresh } from './refresh';
import type { ContractStatus } from './types';

/**
 * A withdrawn contract's credit (payments for months it no longer owes), refunded in one step:
 * each such payment is refunded with the reason given (a credit receipt for one with a receipt),
 * and then shows as refunded rather than to refund. What was refunded already is said beside it.
 */
export function ContractRefund({ status }: { status: ContractStatus }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useMoneyRefresh();
  const { mutateAsync } = useCustomMutation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const owed = new Set(status.lines.filter((l) => l.kind === 'MONTHLY').map((l) => l.month));
  // The payments the credit is made of: MONTHLY ones for months the contract no longer owes.
  const credit = status.payments.filter((p) => p.kind === 'MONTHLY' && p.month && !owed.has(p.month) && !p.refunded_on);
  const submit = async () => {
    const { reason } = await form.validateFields();
    setBusy(true);
    setError(null);
    try {
      for (const p of credit) {
        await mutateAsync({
          url: `${API_URL}/payments/${p.id}/refund`,
          method: 'post',
          values: { reason: reason.trim() },
          successNotification: false,
          errorNotification: false,
        });
      }
      form.resetFields();
      setOpen(false);
      message.success(t('contracts.refund.done', { amount: formatMoney(status.credit) }));
      await refresh();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  if (status.credit <= 0 && status.refunded <= 0) return null;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {status.refunded > 0 && (
        <Alert type="info" showIcon data-refunded={status.refunded} message={t('contracts.refund.refunded', { amount: formatMoney(status.refunded) })} />
      )}
      {status.credit > 0 && credit.length > 0 && (
        <CanAccess resource="payments" action="edit">
          <Button onClick={() => setOpen(true)}>{t('contracts.refund.button', { amount: formatMoney(status.credit) })}</Button>
        </CanAccess>
      )}
      <Modal
        open={open}
        title={t('contracts.refund.title', { amount: formatMoney(status.credit) })}
        okText={t('contracts.refund.confirm')}
        cancelText={t('contractLifecycle.cancel')}
        confirmLoading={busy}
        onOk={() => void submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <p>{t('contracts.refund.help')}</p>
          {error && <Alert type="error" message={error} />}
          <Form form={form} layout="vertical">
            <Form.Item
              name="reason"
              label={t('contracts.refund.reason')}
              rules={[{ required: true, whitespace: true, min: 3, max: 500, message: t('contracts.refund.reasonRule') }]}
            >
              <Input.TextArea rows={2} maxLength={500} />
            </Form.Item>
          </Form>
        </Space>
      </Modal>
    </Space>
  );
}
