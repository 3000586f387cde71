import { useTranslation } from 'react-i18next';
import type { Translate } from '../../engine/fields/format';
import { RelatedRows } from '../../engine/view/related-rows';
import { type Message, messageColumns } from './message-columns';

/** A guardian's messages, newest first: the log narrowed to her. */
export default function GuardianMessagesTab({ id }: { id: number }) {
  const { t } = useTranslation();
  return (
    <RelatedRows<Message>
      resource="messages"
      filters={[{ field: 'guardian_id', operator: 'eq', value: id }]}
      sort={[{ field: 'queued_at', order: 'desc' }]}
      columns={messageColumns(t as Translate, false)}
    />
  );
}
