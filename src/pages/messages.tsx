import type { CrudFilter } from '@refinedev/core';
import { DatePicker, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { MESSAGE_CHANNELS, MESSAGE_KINDS, MESSAGE_STATUSES } from '../../domain/enums';
import { ScreenTitle } from '../components/headings';
import { useT } from '../providers/i18nProvider';
import { ListTable, type ListState } from '../engine/list/list-table';
import { type Message, messageColumns } from '../resources/messages/message-columns';

const valueOf = (state: ListState, field: string, operator = 'eq') => {
  const found = state.filters.find((f) => 'field' in f && f.field === field && f.operator === operator);
  return found && 'value' in found ? (found.value as string | undefined) : undefined;
};

/**
 * /messages/: every message to families, by e-mail and SMS, newest first, paged, sorted and
 * filtered by the server (channel, status, kind, the days it was queued; recipient or subject
 * searched): what was sent, to whom, when, and what became of it. Read only.
 */
export default function MessagesPage() {
  const { t } = useT();
  const select = (state: ListState, field: string, options: readonly string[], label: (v: string) => string) => (
    <Select
      allowClear
      style={{ width: 170 }}
      placeholder={t(`messages.fields.${field}`)}
      aria-label={t(`messages.fields.${field}`)}
      value={valueOf(state, field)}
      options={options.map((v) => ({ value: v, label: label(v) }))}
      onChange={(value: string | undefined) => state.setFilters([{ field, operator: 'eq', value }])}
    />
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <ScreenTitle style={{ margin: 0 }}>{t('messages.title')}</ScreenTitle>
      <ListTable<Message>
        resource="messages"
        manualFilters
        initialSort={[{ field: 'queued_at', order: 'desc' }]}
        columns={messageColumns(t, true)}
        toolbar={(state) => (
          <Space wrap>
            {select(state, 'channel', MESSAGE_CHANNELS, (v) => t(`messages.channels.${v}`))}
            {select(state, 'status', MESSAGE_STATUSES, (v) => t(`messages.statuses.${v}`))}
            {select(state, 'kind', MESSAGE_KINDS, (v) => t(`messages.kinds.${v}`))}
            <DatePicker.RangePicker
              format="DD/MM/YYYY"
              aria-label={t('messages.period')}
              onChange={(range) => {
                const dates = range as [Dayjs | null, Dayjs | null] | null;
                const filters: CrudFilter[] = [
                  { field: 'queued_at', operator: 'gte', value: dates?.[0]?.format('YYYY-MM-DD') },
                  { field: 'queued_at', operator: 'lte', value: dates?.[1]?.format('YYYY-MM-DD') },
                ];
                state.setFilters(filters);
              }}
            />
          </Space>
        )}
      />
    </Space>
  );
}
