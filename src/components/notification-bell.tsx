import { BellOutlined } from '@ant-design/icons';
import { App, Badge, Button, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { subscribeNotifications } from '../providers/notification-stream';
import { notificationText } from './notification-text';
import { useT } from '../providers/i18nProvider';

/** The header's bell: the unread count, live; a new notification also shows as a toast that opens it. */
export function NotificationBell() {
  const { t } = useT();
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const [unread, setUnread] = useState(0);

  // useNavigate gives a new function on every change of address: read through a ref, it doesn't
  // end the subscription, which (the bell being the stream's last listener off the calendar)
  // closed the notification stream and opened a new one on every navigation.
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(
    () =>
      subscribeNotifications((state) => {
        setUnread(state.unread);
        if (state.fresh && state.latest) {
          const { title, body } = notificationText(t, state.latest);
          notification.info({ message: title, description: body, onClick: () => navigateRef.current(state.latest!.link) });
        }
      }),
    [t, notification],
  );

  const label = t('notifications.bell', { count: unread });
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} data-testid="notification-bell" onClick={() => navigate('/notifications/')}>
        <Badge count={unread} size="small" overflowCount={99} data-testid="notification-count">
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Button>
    </Tooltip>
  );
}
