import type { NotificationProvider } from '@refinedev/core';
import { App } from 'antd';
import { variantOf } from './toasts';

/**
 * Refine's notifications through antd's App context (so they follow the theme). Unlike
 * @refinedev/antd's provider, `message` is the title and `description` the text under it.
 * An error is the `destructive` variant, said at once (role alert); the rest are `default`
 * (role status, read when the reader is free). One at a time: App's NOTIFICATION_CONFIG.
 */
export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return {
    open: ({ key, message, description, type }) => {
      if (key) notification.destroy(key);
      const variant = variantOf(type);
      notification.open({
        key,
        message,
        description,
        type: type === 'progress' ? 'info' : type,
        role: variant === 'destructive' ? 'alert' : 'status',
        className: `toast-${variant}`,
      });
    },
    close: (key) => notification.destroy(key),
  };
}
