import { BellOutlined, PhoneOutlined } from '@ant-design/icons';
import { useCustomMutation } from '@refinedev/core';
import { App, Button, Space, Typography } from 'antd';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import type { ReminderSentAnswer } from '../../../domain/answers/statement';
import { formatInstant, formatMoney } from '../../engine/fields/format';
import { errorText } from '../../providers/errors';
import type { Row } from '../../engine/resource-screen';

type Sent = z.infer<typeof ReminderSentAnswer>['data'];

/**
 * The unpaid list's caller: the payer and her phone (a tel: link, for the debt calls), or
 * nothing when the student pays.
 */
export function PayerCell({ row }: { row: Row }) {
  if (!row.payer_guardian_id) return <Typography.Text type="secondary">—</Typography.Text>;
  const phone = typeof row.payer_phone === 'string' && row.payer_phone ? row.payer_phone : null;
  return (
    <Space direction="vertical" size={0}>
      <span>{String(row.payer_name ?? '')}</span>
      {phone && (
        <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} data-testid="payer-phone">
          <PhoneOutlined /> {phone}
        </a>
      )}
    </Space>
  );
}

/**
 * Sends the payer her reminder now (docs/rules.md, Reminders): every child, month and amount
 * she owes. Once a day from the office; a second click the same day is told the first one.
 */
export function RemindNowButton({ row }: { row: Row }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { mutateAsync, mutation } = useCustomMutation<{ data: Sent }>();
  const guardianId = Number(row.payer_guardian_id);
  if (!guardianId) return null;
  const name = String(row.payer_name ?? '');
  const send = async () => {
    try {
      const answer = await mutateAsync({
        url: `/api/guardians/${guardianId}/reminder`,
        method: 'post',
        values: {},
        successNotification: false,
        errorNotification: false,
      });
      const sent = answer.data.data;
      if (sent.created) message.success(t('contracts.unpaid.remindSent', { name, amount: formatMoney(sent.total) }));
      else message.info(t('contracts.unpaid.remindAlready', { name, time: formatInstant(sent.created_at) }));
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <Button size="small" icon={<BellOutlined />} loading={mutation.isPending} onClick={() => void send()} data-testid="remind-now">
      {t('contracts.unpaid.remindNow')}
    </Button>
  );
}
