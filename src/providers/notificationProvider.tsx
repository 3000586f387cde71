import type { NotificationProvider } from '@refinedev/core';
import { App } from 'antd';

export { TOASTS } from './toasts';

/**
 * Refine's notifications through antd's App context (so they follow the theme). Unlike
 * @refinedev/antd's provider, `message` is the title and `description` the text under it.
 */
export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return {
    open: ({ key, message, description, type }) => {
      if (key) notification.destroy(key);
      notification.open({
        key,
        message,
        description,
        type: type === 'progress' ? 'info' : type,
      });
    },
    close: (key) => notification.destroy(key),
  };
}
