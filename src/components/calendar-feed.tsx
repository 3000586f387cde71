import { CalendarOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../providers/errors';
import { http } from '../providers/http';
import { formatInstant } from './fields/format';

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
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { data, isLoading, refetch, error } = useQuery({
    queryKey: ['calendar-feed', endpoint],
    queryFn: async () => (await http.get<{ data: FeedState }>(endpoint)).data.data,
  });

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      await refetch();
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const create = () =>
    run(async () => {
      const answer = await http.post<{ data: FeedState & { url: string } }>(endpoint, {});
      setUrl(answer.data.data.url);
    });
  const revoke = () =>
    run(async () => {
      await http.delete(endpoint);
      setUrl(null);
      message.success(t('feed.revoked'));
    });

  return (
    <Card
      size="small"
      title={
        <Space>
          <CalendarOutlined />
          {t('feed.title')}
        </Space>
      }
      loading={isLoading}
      data-testid="calendar-feed"
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {error && <Alert type="error" message={errorText(error)} />}
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
