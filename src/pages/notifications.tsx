import { CheckOutlined } from '@ant-design/icons';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Grid, Segmented, Space, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { footerOf } from '../engine/list/list-table';
import { notificationText } from '../components/notification-text';
import { formatInstant } from '../engine/fields/format';
import { API_URL, type ProviderError } from '../providers/dataProvider';
import { subscribeNotifications, type NotificationRow } from '../providers/notification-stream';
import { ScreenTitle } from '../components/headings';
import { useT } from '../providers/i18nProvider';

const PAGE_SIZE = 25;

type Page = {
  data: NotificationRow[];
  total: number;
  unread: number;
};

/**
 * /notifications/: the signed-in user's notifications, newest first, all or only the unread;
 * opening one marks it read and goes where it points. The list follows the stream, so a new
 * one appears without a reload.
 */
export default function NotificationsPage() {
  const { t } = useT();
  const phone = Grid.useBreakpoint().sm === false;
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [onlyUnread, setOnlyUnread] = useState(false);

  const start = (page - 1) * PAGE_SIZE;
  const params: Record<string, string | number> = { _start: start, _end: start + PAGE_SIZE };
  if (onlyUnread) params.unread = 'true';
  // keyed by the page, so that the stream and the marks below reload every page at once
  const { query } = useCustom<Page, ProviderError>({
    url: `${API_URL}/notifications`,
    method: 'get',
    config: { query: params },
    errorNotification: false,
    queryOptions: { queryKey: ['notifications-page', page, onlyUnread] },
  });
  const { mutateAsync: send } = useCustomMutation<{ data: { marked: number } }, ProviderError>();
  const post = (url: string) => send({ url, method: 'post', values: {}, successNotification: false, errorNotification: false });
  useEffect(() => subscribeNotifications(() => void queryClient.invalidateQueries({ queryKey: ['notifications-page'] })), [queryClient]);

  const markRead = async (row: NotificationRow) => {
    if (!row.read) await post(`${API_URL}/notifications/${row.id}/read`);
    await queryClient.invalidateQueries({ queryKey: ['notifications-page'] });
  };
  const open = async (row: NotificationRow) => {
    await markRead(row).catch(() => {});
    navigate(row.link);
  };
  const markAll = async () => {
    const { data } = await post(`${API_URL}/notifications/read-all`);
    notification.success({ message: t('notifications.allMarked', { count: data.data.marked }) });
    await queryClient.invalidateQueries({ queryKey: ['notifications-page'] });
  };

  const unread = query.data?.data.unread ?? 0;
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', flexWrap: 'wrap', marginBottom: 16 }}>
        <ScreenTitle style={{ margin: 0 }}>{t('notifications.title')}</ScreenTitle>
        <Space wrap>
          <Typography.Text type="secondary" data-testid="unread-count">
            {t('notifications.unreadCount', { count: unread })}
          </Typography.Text>
          <Segmented
            value={onlyUnread ? 'unread' : 'all'}
            options={[
              { value: 'all', label: t('notifications.all') },
              { value: 'unread', label: t('notifications.unread') },
            ]}
            onChange={(value) => {
              setOnlyUnread(value === 'unread');
              setPage(1);
            }}
          />
          <Button icon={<CheckOutlined />} disabled={!unread} onClick={() => void markAll()}>
            {t('notifications.markAllRead')}
          </Button>
        </Space>
      </Space>
      <Table<NotificationRow>
        rowKey="id"
        loading={query.isLoading}
        dataSource={query.data?.data.data ?? []}
        locale={{ emptyText: t('table.empty') }}
        onRow={(row) => ({ onClick: () => void open(row), style: { cursor: 'pointer' } })}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: query.data?.data.total ?? 0,
          showSizeChanger: false,
          showTotal: footerOf(t),
          onChange: setPage,
        }}
        columns={[
          {
            key: 'text',
            title: t('notifications.title'),
            render: (_, row) => {
              const { title, body } = notificationText(t, row);
              return (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong={!row.read}>{title}</Typography.Text>
                  <Typography.Text type="secondary">{body}</Typography.Text>
                  {phone && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatInstant(row.created_at)}
                    </Typography.Text>
                  )}
                </Space>
              );
            },
          },
          // on a phone the time goes under the text, which keeps the width to break only between words
          ...(phone
            ? []
            : [
                {
                  key: 'created_at',
                  title: t('notifications.received'),
                  width: 180,
                  render: (_: unknown, row: NotificationRow) => formatInstant(row.created_at),
                },
              ]),
          {
            key: 'actions',
            title: phone ? '' : t('table.actions'),
            width: phone ? 48 : 80,
            render: (_, row) =>
              row.read ? null : (
                <Button
                  size="small"
                  type="text"
                  icon={<CheckOutlined />}
                  aria-label={t('notifications.markRead')}
                  title={t('notifications.markRead')}
                  onClick={(event) => {
                    event.stopPropagation();
                    void markRead(row);
                  }}
                />
              ),
          },
        ]}
      />
    </>
  );
}
