import type { Translate } from '../providers/i18nProvider';
import type { NotificationRow } from '../providers/notification-stream';

/** A notification's title and body in the reader's current language (the server's text if the kind is unknown here). */
export function notificationText(t: Translate, row: Pick<NotificationRow, 'kind' | 'params' | 'title' | 'body'>) {
  const key = `notifications.kinds.${row.kind}`;
  return {
    title: t(`${key}.title`, { ...row.params, defaultValue: row.title }),
    body: t(`${key}.body`, { ...row.params, defaultValue: row.body }),
  };
}
