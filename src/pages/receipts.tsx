import { PrinterOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { CrudFilter } from '@refinedev/core';
import { Button, DatePicker, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RECEIPT_KINDS, RECEIPT_STATUSES } from '../../domain/enums';
import { formatDate, formatMoney } from '../engine/fields/format';
import { FiscalReceiptModal, STATUS_COLOURS, type Receipt } from '../resources/money/fiscal-receipt';
import { ScreenTitle } from '../components/headings';

/**
 * /receipts/: the centre's receipts, newest first, paged by the server: by period, status and
 * kind, searched by payer name or number; each opens to print, as PDF, or to cancel.
 */
export default function ReceiptsPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const { tableProps, setFilters } = useTable<Receipt>({
    resource: 'receipts',
    syncWithLocation: false,
    sorters: { mode: 'off' },
    filters: { mode: 'server' },
    pagination: { pageSize: 25 },
  });
  const [q, setQ] = useState<string | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  const [kind, setKind] = useState<string | undefined>();
  const [period, setPeriod] = useState<[string, string] | null>(null);
  const apply = (next: { q?: string; status?: string; kind?: string; period?: [string, string] | null }) => {
    const v = { q, status, kind, period, ...next };
    const filters: CrudFilter[] = [
      { field: 'q', operator: 'eq', value: v.q || undefined },
      { field: 'status', operator: 'eq', value: v.status },
      { field: 'kind', operator: 'eq', value: v.kind },
      { field: 'issued_on', operator: 'gte', value: v.period?.[0] },
      { field: 'issued_on', operator: 'lte', value: v.period?.[1] },
    ];
    setFilters(filters, 'replace');
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <ScreenTitle style={{ margin: 0 }}>{t('receipts.title')}</ScreenTitle>
      <Space wrap>
        <Input.Search
          allowClear
          placeholder={t('receipts.search')}
          aria-label={t('receipts.search')}
          style={{ width: 260 }}
          onSearch={(value) => {
            setQ(value.trim() || undefined);
            apply({ q: value.trim() || undefined });
          }}
        />
        <DatePicker.RangePicker
          format="DD/MM/YYYY"
          aria-label={t('receipts.period')}
          onChange={(range) => {
            const dates = range as [Dayjs | null, Dayjs | null] | null;
            const next: [string, string] | null = dates?.[0] && dates[1] ? [dates[0].format('YYYY-MM-DD'), dates[1].format('YYYY-MM-DD')] : null;
            setPeriod(next);
            apply({ period: next });
          }}
        />
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('receipts.fields.status')}
          aria-label={t('receipts.fields.status')}
          options={RECEIPT_STATUSES.map((s) => ({ value: s, label: t(`enums.${s}`) }))}
          onChange={(value: string | undefined) => {
            setStatus(value);
            apply({ status: value });
          }}
        />
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('receipts.fields.kind')}
          aria-label={t('receipts.fields.kind')}
          options={RECEIPT_KINDS.map((k) => ({ value: k, label: t(`enums.${k}`) }))}
          onChange={(value: string | undefined) => {
            setKind(value);
            apply({ kind: value });
          }}
        />
      </Space>
      <Table<Receipt>
        {...tableProps}
        size="small"
        rowKey="id"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('table.empty') }}
        columns={[
          { key: 'bill_number', title: t('receipts.fields.bill_number'), render: (_, r) => r.bill_number },
          { key: 'issued_on', title: t('receipts.fields.issued_on'), render: (_, r) => formatDate(r.issued_on) },
          {
            key: 'kind',
            title: t('receipts.fields.kind'),
            render: (_, r) =>
              r.kind === 'CREDIT' && r.cancels_bill_number
                ? `${t(`enums.${r.kind}`)} (${t('receipts.cancelsShort', { number: r.cancels_bill_number })})`
                : t(`enums.${r.kind}`),
          },
          { key: 'payer', title: t('receipts.fields.payer'), render: (_, r) => String(r.payer.name ?? '') },
          { key: 'amount', title: t('receipts.fields.amount'), align: 'right', render: (_, r) => formatMoney(r.kind === 'CREDIT' ? -r.amount : r.amount) },
          { key: 'status', title: t('receipts.fields.status'), render: (_, r) => <Tag color={STATUS_COLOURS[r.status]}>{t(`enums.${r.status}`)}</Tag> },
          {
            key: 'mark',
            title: t('receipts.fields.mark'),
            render: (_, r) => r.mark ?? (r.error ? <Typography.Text type="danger">{r.error}</Typography.Text> : ''),
          },
          {
            key: 'actions',
            title: t('table.actions'),
            render: (_, r) => (
              <Button
                size="small"
                icon={<PrinterOutlined />}
                title={t('receipts.open')}
                aria-label={`${t('receipts.open')} ${r.bill_number}`}
                onClick={() => setOpen(r.id)}
              />
            ),
          },
        ]}
      />
      <FiscalReceiptModal id={open} onClose={() => setOpen(null)} />
    </Space>
  );
}
