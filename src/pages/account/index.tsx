import { Card, DatePicker, Space, Tabs } from 'antd';
import type { CrudFilter } from '@refinedev/core';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isMonth } from '../../../domain/money';
import { EXPENSES } from '../../../domain/resources/money';
import type { ListState } from '../../engine/list/list-table';
import { ResourceScreen } from '../../engine/resource-screen';
import { ListTotals } from '../../resources/money/totals';
import { AccountExports } from './exports';
import { AccountMonth } from './month';
import { AccountYear } from './year';
import { ScreenTitle } from '../../components/headings';

/** A new expense is dated today unless the user picks another day. */
const expenseDefaults = () => ({ date: dayjs().format('YYYY-MM-DD') });
const monthParam = (value: string | null) => (value && isMonth(value) ? value : dayjs().format('YYYY-MM'));

/** The expenses list's filters for a month: its first to its last day. */
const monthFilters = (month: string): CrudFilter[] => {
  const first = dayjs(`${month}-01`);
  return [
    { field: 'date', operator: 'gte', value: first.format('YYYY-MM-DD') },
    { field: 'date', operator: 'lte', value: first.endOf('month').format('YYYY-MM-DD') },
  ];
};

/** Above the expenses list: the month it shows (`expense_month`) and the totals of its rows. */
function ExpenseToolbar({ state, month, setMonth }: { state: ListState; month: string; setMonth(m: string): void }) {
  const { t } = useTranslation();
  const first = dayjs(`${month}-01`);
  const [from, to] = monthFilters(month).map((f) => ('value' in f ? f.value : undefined));
  const value = (operator: string) => state.filters.find((f) => 'field' in f && f.field === 'date' && f.operator === operator)?.value;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the month in the URL decides the dates
  useEffect(() => {
    if (value('gte') !== from || value('lte') !== to) state.setFilters(monthFilters(month));
  }, [from, to]);
  return (
    <Space direction="vertical" align="end">
      <DatePicker
        picker="month"
        format="MM/YYYY"
        allowClear={false}
        aria-label={t('account.expenseMonth')}
        value={first}
        onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
      />
      <ListTotals
        state={state}
        items={[
          { key: 'amount', label: t('money.total') },
          { key: 'with_receipt', label: t('money.withReceipt') },
          { key: 'without_receipt', label: t('money.withoutReceipt') },
        ]}
      />
    </Space>
  );
}

/**
 * /account/ (ROOT, ADMIN): the Month tab (figures of `income_month`, its payments, the expenses
 * of `expense_month` with their drawers, `?mode=create|update|view&expense=ID`) and the Year tab.
 */
export default function AccountPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const incomeMonth = monthParam(params.get('income_month'));
  const expenseMonth = params.has('expense_month') ? monthParam(params.get('expense_month')) : incomeMonth;
  const tab = params.get('tab') === 'year' ? 'year' : 'month';
  const year = /^\d{4}$/.test(params.get('year') ?? '') ? Number(params.get('year')) : Number(incomeMonth.slice(0, 4));
  const set = (values: Record<string, string>) =>
    // from the URL as it is now (the list writes its filters there too)
    setParams(() => {
      const copy = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(values)) copy.set(k, v);
      return copy;
    });

  const expenses = (
    <ResourceScreen
      def={EXPENSES}
      form={{ defaults: expenseDefaults }}
      // the first request already asks for the month (not all expenses, then the month)
      initialFilters={monthFilters(expenseMonth)}
      toolbar={(state) => <ExpenseToolbar state={state} month={expenseMonth} setMonth={(m) => set({ expense_month: m })} />}
    />
  );
  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
        <ScreenTitle style={{ marginTop: 0 }}>{t('account.title')}</ScreenTitle>
        <AccountExports
          from={tab === 'year' ? `${year}-01-01` : `${incomeMonth}-01`}
          to={tab === 'year' ? `${year}-12-31` : dayjs(`${incomeMonth}-01`).endOf('month').format('YYYY-MM-DD')}
        />
      </Space>
      <Tabs
        activeKey={tab}
        onChange={(key) => set({ tab: key })}
        items={[
          {
            key: 'month',
            label: t('account.month'),
            children: <AccountMonth incomeMonth={incomeMonth} setIncomeMonth={(m) => set({ income_month: m, expense_month: m })} expenses={expenses} />,
          },
          { key: 'year', label: t('account.year'), children: <AccountYear year={year} setYear={(y) => set({ year: String(y) })} /> },
        ]}
      />
    </Card>
  );
}
