import type { TableColumnsType } from 'antd';
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { MessageChannel, MessageStatus } from '../../../domain/enums';
import { formatInstant } from '../../engine/fields/format';
import type { Translate } from '../../providers/i18nProvider';

/** A message to a family as GET /api/messages answers it. */
export interface Message {
  id: number;
  guardian_id: number | null;
  guardian: { id: number; name: string | null } | null;
  recipient: string;
  channel: MessageChannel;
  kind: string;
  subject: string;
  body: string;
  status: MessageStatus;
  error: string | null;
  /** `not-configured`: its channel has no setting, so it stays as what would be sent. */
  note: string | null;
  attempts: number;
  queued_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  failed_at: string | null;
}

export const STATUS_COLOURS: Record<MessageStatus, string> = { QUEUED: 'default', SENT: 'blue', DELIVERED: 'green', FAILED: 'red' };

/** The log's columns; `withGuardian` adds who it is for (the whole log, not one guardian's tab). */
export function messageColumns(t: Translate, withGuardian: boolean): TableColumnsType<Message> {
  return [
    { key: 'queued_at', title: t('messages.fields.queued_at'), sorter: true, render: (_, m) => formatInstant(m.queued_at) },
    ...(withGuardian
      ? [
          {
            key: 'guardian',
            title: t('messages.fields.guardian'),
            render: (_: unknown, m: Message) => m.guardian?.name ?? '',
          } as TableColumnsType<Message>[number],
        ]
      : []),
    { key: 'recipient', title: t('messages.fields.recipient'), sorter: true, render: (_, m) => m.recipient },
    { key: 'channel', title: t('messages.fields.channel'), sorter: true, render: (_, m) => t(`messages.channels.${m.channel}`) },
    { key: 'kind', title: t('messages.fields.kind'), sorter: true, render: (_, m) => t(`messages.kinds.${m.kind}`, { defaultValue: m.kind }) },
    {
      key: 'body',
      title: t('messages.fields.body'),
      render: (_, m) => (
        <Typography.Text style={{ maxWidth: 360, display: 'inline-block' }} ellipsis={{ tooltip: m.body }}>
          {m.channel === 'SMS' ? m.body : m.subject}
        </Typography.Text>
      ),
    },
    {
      key: 'status',
      title: t('messages.fields.status'),
      sorter: true,
      render: (_, m) => (
        <Space size={4} wrap>
          <Tag color={STATUS_COLOURS[m.status]}>{t(`messages.statuses.${m.status}`)}</Tag>
          {m.note === 'not-configured' && (
            <Tooltip title={t('messages.notConfigured')}>
              <Tag color="orange" data-testid="message-not-configured">
                {t('messages.notConfigured')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { key: 'sent_at', title: t('messages.fields.sent_at'), sorter: true, render: (_, m) => formatInstant(m.delivered_at ?? m.sent_at) },
    {
      key: 'error',
      title: t('messages.fields.error'),
      render: (_, m) => (m.error ? <Typography.Text type="danger">{m.error}</Typography.Text> : ''),
    },
  ];
}
