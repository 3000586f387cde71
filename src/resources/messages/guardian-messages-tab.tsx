import { useT } from '../../providers/i18nProvider';
import { RelatedRows } from '../../engine/view/related-rows';
import { type Message, messageColumns } from './message-columns';

/** A guardian's messages, newest first: the log narrowed to her. */
export default function GuardianMessagesTab({ id }: { id: number }) {
  const { t } = useT();
  return (
    <RelatedRows<Message>
      resource="messages"
      filters={[{ field: 'guardian_id', operator: 'eq', value: id }]}
      sort={[{ field: 'queued_at', order: 'desc' }]}
      columns={messageColumns(t, false)}
    />
  );
}
