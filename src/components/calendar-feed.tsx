import { CalendarOutlined } from '@ant-design/icons';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, App, Button, Card, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toProviderError, type ProviderError } from '../providers/dataProvider';
import { formatInstant } from '../engine/fields/format';

interface FeedState {
  active: boolean;
  created_at: string | null;
}

/**
 * A teacher's private iCal link (Google Calendar, Outlook subscribe to it). The server keeps
 * only a hash of the secret, so the link is shown once, when it is made; reset makes a new one.
 * `endpoint` is /api/teachers/<id>/calendar-feed or /api/mydata/calendar-feed.
 */
export function CalendarFeedCard({ endpoint }: { endpoint: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [url, setUrl] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { query } = useCustom<{ data: FeedState }, ProviderError>({ url: endpoint, method: 'get', errorNotification: false });
  const data = query.data?.data.data;
  const error = query.error;
  const { mutateAsync, mutation } = useCustomMutation<{ data: FeedState & { url: string } }, ProviderError>();
  const busy = mutation.isPending;

  const run = async (method: 'post' | 'delete') => {
    setProblem(null);
    try {
      const answer = await mutateAsync({ url: endpoint, method, values: {}, successNotification: false, errorNotification: false });
      await query.refetch();
      return answer.data;
    } catch (e) {
      setProblem(toProviderError(e).message);
      return null;
    }
  };
  const create = async () => {
    const answer = await run('post');
    if (answer) setUrl(answer.data.url);
  };
  const revoke = async () => {
    if (!(await run('delete'))) return;
    setUrl(null);
    message.success(t('feed.revoked'));
  };

  return (
    <Card
      size="small"
      title={
        <Space>
          <CalendarOutlined />
          {t('feed.title')}
        </Space>
      }
      loading={query.isLoading}
      data-testid="calendar-feed"
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {error && <Alert type="error" message={error.message} />}
        <Typography.Text type="secondary">{data?.active ? t('feed.active', { at: formatInstant(data.created_at) }) : t('feed.inactive')}</Typography.Text>
        {url && (
          <Alert
            type="success"
            message={t('feed.created')}
            description={
              <Space direction="vertical" style={{ width: '100%' }}>
                <Typography.Paragraph
                  copyable={{ text: url, tooltips: [t('feed.copy'), t('feed.copied')] }}
                  code
                  style={{ wordBreak: 'break-all', marginBottom: 0 }}
                  data-testid="calendar-feed-url"
                >
                  {url}
                </Typography.Paragraph>
                <Typography.Text type="secondary">{t('feed.hint')}</Typography.Text>
              </Space>
            }
          />
        )}
        {problem && <Alert type="error" message={problem} />}
        <Space wrap>
          {!data?.active ? (
            <Button type="primary" loading={busy} onClick={() => void create()}>
              {t('feed.create')}
            </Button>
          ) : (
            <>
              <Popconfirm title={t('feed.resetConfirm')} okText={t('feed.reset')} cancelText={t('buttons.cancel')} onConfirm={() => create()}>
                <Button loading={busy}>{t('feed.reset')}</Button>
              </Popconfirm>
              <Popconfirm
                title={t('feed.revokeConfirm')}
                okText={t('feed.revoke')}
                okButtonProps={{ danger: true }}
                cancelText={t('buttons.cancel')}
                onConfirm={() => revoke()}
              >
                <Button danger loading={busy}>
                  {t('feed.revoke')}
                </Button>
              </Popconfirm>
            </>
          )}
        </Space>
      </Space>
    </Card>
  );
}
