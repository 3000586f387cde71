import { useCustom } from '@refinedev/core';
import { Alert, DatePicker, Space, Spin, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { AccountYearAnswer } from '../../../domain/answers/money';
import type { MonthFigures, ReceiptSplit } from '../../../domain/money';
import { formatMoney } from '../../engine/fields/format';
import { errorText } from '../../providers/errors';
import { BarChart } from '../../resources/money/charts';
import { accountKey } from '../../resources/money/refresh';
import { monthLabel } from '../../resources/money/types';
import { FIGURES } from './month';

const COLORS = { income: '#52c41a', expenses: '#f5222d', expected: '#1677ff' };

/** Euro without cents, for a chart's axis. */
const axisMoney = (cents: number) => `${Math.round(cents / 100).toLocaleString('el-GR')} €`;

/** The Year tab: twelve months side by side with their totals, and a chart of income, expenses and expected. */
export function AccountYear({ year, setYear }: { year: number; setYear(year: number): void }) {
  const { t, i18n } = useTranslation();
  const { result, query } = useCustom<z.infer<typeof AccountYearAnswer>>({
    url: '/api/account/year',
    method: 'get',
    config: { query: { year } },
    queryOptions: { queryKey: accountKey({ year }) },
  });
  const figures = result.data?.data;
  const short = (month: string) => monthLabel(month, i18n.language).slice(0, 3);
  const cell = (split: ReceiptSplit | undefined) =>
    split && (
      <span title={`${t('money.withReceipt')}: ${formatMoney(split.with_receipt)} · ${t('money.withoutReceipt')}: ${formatMoney(split.without_receipt)}`}>
        {formatMoney(split.total)}
      </span>
    );
  type Row = { key: string; month: string } & Partial<Omit<MonthFigures, 'month'>>;
  const rows: Row[] = figures ? [...figures.months.map((m) => ({ key: m.month, ...m })), { key: 'totals', month: t('account.totals'), ...figures.totals }] : [];
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <DatePicker picker="year" allowClear={false} aria-label={t('account.year')} value={dayjs(`${year}-01-01`)} onChange={(d) => d && setYear(d.year())} />
      {query.isLoading ? (
        <Spin />
      ) : query.isError || !figures ? (
        <Alert type="error" message={errorText(query.error)} />
      ) : (
        <>
          <BarChart
            title={t('account.chart')}
            labels={figures.months.map((m) => short(m.month))}
            format={axisMoney}
            series={(['income', 'expenses', 'expected'] as const).map((name) => ({
              key: name,
              label: t(`account.${name}`),
              color: COLORS[name],
              values: figures.months.map((m) => m[name].total),
            }))}
          />
          <Table<Row>
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={rows}
            rowClassName={(row) => (row.key === 'totals' ? 'ant-table-row-selected' : '')}
            columns={[
              {
                key: 'month',
                title: t('account.monthColumn'),
                render: (_, row) => (row.key === 'totals' ? <strong>{row.month}</strong> : monthLabel(row.month, i18n.language)),
              },
              ...FIGURES.map((name) => ({
                key: name,
                title: t(`account.${name}`),
                align: 'right' as const,
                render: (_: unknown, row: Row) => cell(row[name]),
              })),
            ]}
          />
        </>
      )}
    </Space>
  );
}
