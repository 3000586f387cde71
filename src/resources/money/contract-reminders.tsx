import { useCustom, useUpdate } from '@refinedev/core';
import { Alert, App, Button, Space, Spin, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { ContractReminderSchema, ContractRemindersAnswer } from '../../../domain/answers/money';
import { formatInstant, formatMoney } from '../../engine/fields/format';
import { API_URL } from '../../providers/dataProvider';
import { errorText } from '../../providers/errors';
import { contractAnswerKey } from './refresh';
import { monthLabel, type Contract } from './types';

type Reminder = z.infer<typeof ContractReminderSchema>;

/** A contract's Reminders tab (ADMIN): what was written to whom and when, and reminders on or off. */
export function ContractReminders({ contract }: { contract: Contract }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { mutateAsync: update, mutation } = useUpdate();
  const { result, query } = useCustom<z.infer<typeof ContractRemindersAnswer>>({
    url: `${API_URL}/contracts/${contract.id}/reminders`,
    method: 'get',
    queryOptions: { queryKey: contractAnswerKey(contract.id, 'reminders') },
  });
  const enabled = contract.reminders_enabled !== false;
  const toggle = async () => {
    try {
      await update({
        resource: 'contracts',
        id: contract.id,
        values: { reminders_enabled: !enabled, version: contract.version },
        successNotification: false,
        errorNotification: false,
      });
    } catch (e) {
      message.error(errorText(e));
    }
  };
  if (query.isLoading) return <Spin />;
  if (query.isError) return <Alert type="error" message={errorText(query.error)} />;
  const state = (r: Reminder) => {
    if (r.sent_at) return <Tag color="green">{t('contractReminders.sent', { date: formatInstant(r.sent_at) })}</Tag>;
    if (r.cancelled_at) return <Tag>{t('contractReminders.cancelled')}</Tag>;
    if (r.last_error) return <Tag color="red">{t('contractReminders.failed', { error: r.last_error })}</Tag>;
    return <Tag color="blue">{t('contractReminders.pending')}</Tag>;
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {!enabled && <Alert type="warning" message={t('contractReminders.off')} />}
      <Button size="small" loading={mutation.isPending} onClick={() => void toggle()}>
        {enabled ? t('contractReminders.turnOff') : t('contractReminders.turnOn')}
      </Button>
      <Table<Reminder>
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={result.data?.data ?? []}
        locale={{ emptyText: t('contractReminders.empty') }}
        columns={[
          { key: 'written', title: t('contractReminders.written'), render: (_, r) => formatInstant(r.created_at) },
          { key: 'to', title: t('contractReminders.to'), render: (_, r) => (r.guardian_name ? `${r.guardian_name} · ${r.recipient}` : r.recipient) },
          { key: 'months', title: t('contractReminders.months'), render: (_, r) => r.months.map((m) => monthLabel(m, i18n.language)).join(', ') },
          { key: 'amount', title: t('contractReminders.amount'), align: 'right', render: (_, r) => formatMoney(r.amount) },
          { key: 'state', title: t('contractReminders.state'), render: (_, r) => state(r) },
        ]}
      />
    </Space>
  );
}
