import { useList, type CrudFilters } from '@refinedev/core';
import { Card, Space, Statistic } from 'antd';
import { formatMoney } from '../../engine/fields/format';

interface Item {
  key: string;
  label: string;
  /** Integer cents; undefined while loading. */
  value: number | undefined;
}

/** Sums of the rows a list shows (all pages), above the table, in euro. */
export function MoneyTotals({ items }: { items: Item[] }) {
  return (
    <Space wrap size="middle" role="group" aria-label={items.map((i) => i.label).join(', ')}>
      {items.map((item) => (
        <Card key={item.key} size="small" styles={{ body: { padding: '8px 16px' } }} data-total={item.key}>
          <Statistic title={item.label} value={item.value === undefined ? '–' : formatMoney(item.value)} valueStyle={{ fontSize: 18 }} />
        </Card>
      ))}
    </Space>
  );
}

/**
 * The totals the list API sums over every row matching `filters` (all pages): one row is asked
 * for, the sums come beside it.
 */
export function ListTotals({ resource, filters, items }: { resource: string; filters: CrudFilters; items: { key: string; label: string }[] }) {
  const { query } = useList({ resource, filters, pagination: { currentPage: 1, pageSize: 1, mode: 'server' } });
  const totals = (query.data as { totals?: Record<string, number> } | undefined)?.totals;
  return <MoneyTotals items={items.map((i) => ({ ...i, value: totals?.[i.key] }))} />;
}
