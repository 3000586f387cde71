import { StatisticCard } from '@ant-design/pro-components';
import { useCustom } from '@refinedev/core';
import { Alert, Card, DatePicker, Space, Spin } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { AccountMonthAnswer } from '../../../domain/answers/money';
import type { ReceiptSplit } from '../../../domain/money';
import { formatMoney } from '../../engine/fields/format';
import { errorText } from '../../providers/errors';
import { PaymentsList } from '../../resources/money/payments-list';
import { accountKey } from '../../resources/money/refresh';

export const FIGURES = ['income', 'expenses', 'expected', 'net'] as const;

/** One figure of the month: its total, and the part with and without receipt beneath it. */
function Figure({ name, split }: { name: (typeof FIGURES)[number]; split: ReceiptSplit }) {
  const { t } = useTranslation();
  return (
    <div data-figure={name} style={{ flex: 1, minWidth: 220 }}>
      <StatisticCard
        bordered
        statistic={{
          title: t(`account.${name}`),
          value: formatMoney(split.total),
          description: (
            <Space direction="vertical" size={0}>
              <StatisticCard.Statistic layout="horizontal" title={t('money.withReceipt')} value={formatMoney(split.with_receipt)} />
              <StatisticCard.Statistic layout="horizontal" title={t('money.withoutReceipt')} value={formatMoney(split.without_receipt)} />
            </Space>
          ),
        }}
      />
    </div>
  );
}

/** The figures of one month (income, expenses, expected, net; each split by receipt). */
function MonthFiguresCards({ month }: { month: string }) {
  // An expense or payment added, changed or deleted below moves these cards too.
  const { result, query } = useCustom<z.infer<typeof AccountMonthAnswer>>({
    url: '/api/account/month',
    method: 'get',
    config: { query: { month } },
    queryOptions: { queryKey: accountKey({ month }) },
  });
  const figures = result.data?.data;
  if (query.isLoading) return <Spin />;
  if (query.isError || !figures) return <Alert type="error" message={errorText(query.error)} />;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16 }}>
      {FIGURES.map((name) => (
        <Figure key={name} name={name} split={figures[name]} />
      ))}
    </div>
  );
}

interface Props {
  incomeMonth: string;
  setIncomeMonth(month: string): void;
  /** The expenses list of the month (the screen's generic list, with its drawers). */
  expenses: React.ReactNode;
}

/** The Month tab: the month's figures, its payments (income) and its expenses. */
export function AccountMonth({ incomeMonth, setIncomeMonth, expenses }: Props) {
  const { t } = useTranslation();
  const first = dayjs(`${incomeMonth}-01`);
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space>
        <span>{t('account.incomeMonth')}</span>
        <DatePicker
          picker="month"
          format="MM/YYYY"
          allowClear={false}
          aria-label={t('account.incomeMonth')}
          value={first}
          onChange={(d) => d && setIncomeMonth(d.format('YYYY-MM'))}
        />
      </Space>
      <MonthFiguresCards month={incomeMonth} />
      <Card title={t('account.incomeList')} size="small">
        <PaymentsList key={incomeMonth} initialRange={[first.startOf('month'), first.endOf('month')]} />
      </Card>
      <Card title={t('account.expenseList')} size="small">
        {expenses}
      </Card>
    </Space>
  );
}
