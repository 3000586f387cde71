import { DeleteOutlined, EditOutlined, PrinterOutlined } from '@ant-design/icons';
import { CanAccess, useDelete, useList, type CrudFilter } from '@refinedev/core';
import { Button, DatePicker, Input, Popconfirm, Select, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { PAYMENT_KINDS, PAYMENT_METHODS } from '../../../domain/enums';
import { PAYMENTS } from '../../../domain/resources/money';
import { DateRangePresets, type DateRange } from '../../engine/list/date-range-presets';
import { ExportCsvButton, resourceCsvColumns } from '../../engine/list/export-csv';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { footerOf } from '../../engine/list/list-table';
import { PaymentDrawer } from './payment-form';
import { useMoneyRefresh } from './refresh';
import { ReceiptModal } from './receipt';
import { MoneyTotals } from './totals';
import { monthLabel, type Payment } from './types';
import { useT } from '../../providers/i18nProvider';

const PAGE = 10;

interface Props {
  /** The payments of one contract or of one student; every payment without one (the account). */
  owner?: { field: 'contract_id' | 'student_id'; id: number };
  /** The dates shown at first (the account's month). */
  initialRange?: DateRange | null;
}

/**
 * Payments where they are listed (a contract's, a student's): filterable by date with the quick
 * ranges, kind, method, month, receipt or not and receipt number; the totals of the filtered
 * rows; CSV export of them; correct, delete (with confirmation) and print the receipt.
 */
export function PaymentsList({ owner, initialRange = null }: Props) {
  const { t, i18n } = useT();
  const refresh = useMoneyRefresh();
  const { mutateAsync: remove } = useDelete();
  const [page, setPage] = useState(1);
  const [range, setRange] = useState<DateRange | null>(initialRange);
  const [kind, setKind] = useState<string | null>(null);
  const [method, setMethod] = useState<string | null>(null);
  const [month, setMonth] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<'true' | 'false' | null>(null);
  const [billNumber, setBillNumber] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [printing, setPrinting] = useState<number | null>(null);

  const filters: CrudFilter[] = [
    ...(owner ? [{ field: owner.field, operator: 'eq' as const, value: owner.id }] : []),
    { field: 'paid_on', operator: 'gte', value: range?.[0].format('YYYY-MM-DD') },
    { field: 'paid_on', operator: 'lte', value: range?.[1].format('YYYY-MM-DD') },
    { field: 'kind', operator: 'eq', value: kind ?? undefined },
    { field: 'method', operator: 'eq', value: method ?? undefined },
    { field: 'month', operator: 'eq', value: month ?? undefined },
    { field: 'with_receipt', operator: 'eq', value: receipt ?? undefined },
    { field: 'bill_number', operator: 'contains', value: billNumber.trim() || undefined },
  ];
  const sorters = PAYMENTS.defaultSort.map((s) => ({ field: s.field, order: s.order }));
  const { result, query } = useList<Payment>({ resource: PAYMENTS.name, filters, sorters, pagination: { currentPage: page, pageSize: PAGE, mode: 'server' } });
  const totals = (query.data as { totals?: Record<string, number> } | undefined)?.totals;
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => (set(v), setPage(1));

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <DateRangePresets value={range} onChange={reset(setRange)} />
        <Select
          allowClear
          aria-label={t('payments.fields.kind')}
          placeholder={t('payments.fields.kind')}
          style={{ width: 150 }}
          value={kind}
          onChange={reset(setKind)}
          options={PAYMENT_KINDS.map((k) => ({ value: k, label: t(`enums.${k}`) }))}
        />
        <Select
          allowClear
          aria-label={t('payments.fields.method')}
          placeholder={t('payments.fields.method')}
          style={{ width: 150 }}
          value={method}
          onChange={reset(setMethod)}
          options={PAYMENT_METHODS.map((k) => ({ value: k, label: t(`enums.${k}`) }))}
        />
        <DatePicker
          picker="month"
          format="MM/YYYY"
          placeholder={t('payments.fields.month')}
          value={month ? dayjs(`${month}-01`) : null}
          onChange={(d) => reset(setMonth)(d ? d.format('YYYY-MM') : null)}
        />
        <Select
          allowClear
          aria-label={t('money.receipt')}
          placeholder={t('money.receipt')}
          style={{ width: 170 }}
          value={receipt}
          onChange={reset(setReceipt)}
          options={[
            { value: 'true', label: t('money.withReceipt') },
            { value: 'false', label: t('money.withoutReceipt') },
          ]}
        />
        <Input.Search
          allowClear
          placeholder={t('payments.fields.bill_number')}
          aria-label={t('payments.fields.bill_number')}
          style={{ width: 170 }}
          onSearch={reset(setBillNumber)}
        />
        <ExportCsvButton
          resource={PAYMENTS.name}
          fileName="payments"
          columns={resourceCsvColumns(t, PAYMENTS)}
          filters={filters.filter((f) => f.value !== undefined)}
          sorters={sorters}
        />
      </Space>
      <MoneyTotals
        items={[
          { key: 'amount', label: t('money.total'), value: totals?.amount },
          { key: 'with', label: t('money.withReceipt'), value: totals?.with_receipt },
          { key: 'without', label: t('money.withoutReceipt'), value: totals?.without_receipt },
        ]}
      />
      <Table<Payment>
        size="small"
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={query.isFetching}
        dataSource={result.data}
        locale={{ emptyText: t('table.empty') }}
        pagination={{ current: page, pageSize: PAGE, total: result.total, onChange: setPage, showTotal: footerOf(t) }}
        columns={[
          { key: 'paid_on', title: t('payments.fields.paid_on'), render: (_, p) => formatDate(p.paid_on) },
          ...(owner?.field !== 'contract_id'
            ? [{ key: 'contract', title: t('payments.fields.contract_id'), render: (_: unknown, p: Payment) => p.contract?.name }]
            : []),
          {
            key: 'kind',
            title: t('payments.fields.kind'),
            render: (_, p) => (p.kind === 'MONTHLY' ? `${t('enums.MONTHLY')} · ${monthLabel(p.month, i18n.language)}` : t(`enums.${p.kind}`)),
          },
          { key: 'amount', title: t('payments.fields.amount'), align: 'right', render: (_, p) => formatMoney(p.amount) },
          { key: 'method', title: t('payments.fields.method'), render: (_, p) => t(`enums.${p.method}`) },
          {
            key: 'bill_number',
            title: t('payments.fields.bill_number'),
            render: (_, p) => p.bill_number ?? <Tag>{t('money.withoutReceipt')}</Tag>,
          },
          { key: 'description', title: t('payments.fields.description'), render: (_, p) => p.description },
          {
            key: 'actions',
            title: t('table.actions'),
            render: (_, p) => (
              <Space size={4}>
                <Button size="small" icon={<PrinterOutlined />} title={t('receipt.open')} aria-label={t('receipt.open')} onClick={() => setPrinting(p.id)} />
                <CanAccess resource={PAYMENTS.name} action="edit">
                  <Button size="small" icon={<EditOutlined />} title={t('buttons.edit')} aria-label={t('buttons.edit')} onClick={() => setEditing(p.id)} />
                </CanAccess>
                <CanAccess resource={PAYMENTS.name} action="delete">
                  <Popconfirm
                    title={t('payments.deleteConfirm', { amount: formatMoney(p.amount), date: formatDate(p.paid_on) })}
                    okText={t('buttons.delete')}
                    okButtonProps={{ danger: true }}
                    cancelText={t('buttons.cancel')}
                    onConfirm={async () => {
                      await remove({ resource: PAYMENTS.name, id: p.id, successNotification: () => ({ type: 'success', message: t('payments.deleted') }) });
                      await refresh();
                    }}
                  >
                    <Button size="small" danger icon={<DeleteOutlined />} title={t('buttons.delete')} aria-label={t('buttons.delete')} />
                  </Popconfirm>
                </CanAccess>
              </Space>
            ),
          },
        ]}
      />
      <PaymentDrawer id={editing} onClose={() => setEditing(null)} />
      <ReceiptModal id={printing} onClose={() => setPrinting(null)} />
    </Space>
  );
}
