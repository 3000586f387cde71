import { Card, Space, Statistic } from 'antd';
import { formatMoney } from '../../engine/fields/format';
import type { ListState } from '../../engine/list/list-table';

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

/** The sums of every row a list's filters match, from the list's own answer (all pages, one request). */
export function ListTotals({ state, items }: { state: ListState; items: { key: string; label: string }[] }) {
  return <MoneyTotals items={items.map((i) => ({ ...i, value: state.totals?.[i.key] }))} />;
}
