import { useCustom } from '@refinedev/core';
import { Alert, Card, Col, DatePicker, Row, Space, Spin, Table, Tabs, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { ContractAnalyticsAnswer } from '../../../domain/answers/money';
import { formatMoney } from '../../engine/fields/format';
import { errorText } from '../../providers/errors';
import { BarChart, LineChart } from '../../resources/money/charts';
import { monthLabel } from '../../resources/money/types';
import { ScreenTitle } from '../../components/headings';

type ContractAnalytics = z.infer<typeof ContractAnalyticsAnswer>['data'];
type Outstanding = ContractAnalytics['by_category'][number];
type AnalyticsMonth = ContractAnalytics['months'][number];

/** The school year around today: September to June. */
function schoolYear(now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const start = now.month() >= 8 ? now.year() : now.year() - 1;
  return [dayjs(`${start}-09-01`), dayjs(`${start + 1}-06-01`)];
}

const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toLocaleString('el-GR', { maximumFractionDigits: 1 })}%`);
const axisMoney = (cents: number) => `${Math.round(cents / 100).toLocaleString('el-GR')} €`;

function OutstandingTable({ title, rows, empty }: { title: string; rows: Outstanding[]; empty: string }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={title}>
      <Table<Outstanding>
        size="small"
        scroll={{ x: 'max-content' }}
        rowKey={(r) => String(r.id)}
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: t('table.empty') }}
        columns={[
          { key: 'name', title: t('analytics.name'), render: (_, r) => r.name ?? empty },
          { key: 'expected', title: t('analytics.expected'), align: 'right', render: (_, r) => formatMoney(r.expected) },
          { key: 'collected', title: t('analytics.collected'), align: 'right', render: (_, r) => formatMoney(r.collected) },
          { key: 'outstanding', title: t('analytics.outstanding'), align: 'right', render: (_, r) => formatMoney(r.outstanding) },
        ]}
      />
    </Card>
  );
}

/** The Contracts tab: per month over the chosen range, as charts and as a table. */
function ContractsAnalytics() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(schoolYear);
  const from = range[0].format('YYYY-MM');
  const to = range[1].format('YYYY-MM');
  const { result, query } = useCustom<z.infer<typeof ContractAnalyticsAnswer>>({
    url: '/api/analytics/contracts',
    method: 'get',
    config: { query: { from, to } },
  });
  const data = result.data?.data;
  const label = (month: string) => monthLabel(month, i18n.language);
  const short = (month: string) => `${label(month).slice(0, 3)} ${month.slice(2, 4)}`;

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <span>{t('analytics.range')}</span>
        <DatePicker.RangePicker picker="month" format="MM/YYYY" allowClear={false} value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
      </Space>
      {query.isLoading ? (
        <Spin />
      ) : query.isError || !data ? (
        <Alert type="error" message={errorText(query.error)} />
      ) : (
        <>
          <Alert
            type="info"
            showIcon
            data-note="due"
            message={data.due_until ? t('analytics.dueNote', { month: label(data.due_until) }) : t('analytics.noneDue')}
          />
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <LineChart
                title={t('analytics.contractsChart')}
                labels={data.months.map((m) => short(m.month))}
                format={(v) => v.toLocaleString('el-GR', { maximumFractionDigits: 1 })}
                series={[
                  { key: 'new', label: t('analytics.newContracts'), color: '#722ed1', values: data.months.map((m) => m.new_contracts) },
                  { key: 'active', label: t('analytics.activeContracts'), color: '#1677ff', values: data.months.map((m) => m.active_contracts) },
                ]}
              />
            </Col>
            <Col xs={24} xl={12}>
              <BarChart
                title={t('analytics.moneyChart')}
                labels={data.months.map((m) => short(m.month))}
                format={axisMoney}
                series={[
                  { key: 'expected', label: t('analytics.expected'), color: '#1677ff', values: data.months.map((m) => m.expected) },
                  { key: 'collected', label: t('analytics.collected'), color: '#52c41a', values: data.months.map((m) => m.collected) },
                ]}
              />
            </Col>
          </Row>
          <Table<AnalyticsMonth>
            size="small"
            rowKey="month"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={data.months}
            columns={[
              { key: 'month', title: t('account.monthColumn'), render: (_, m) => label(m.month) },
              { key: 'new', title: t('analytics.newContracts'), align: 'right', render: (_, m) => m.new_contracts },
              { key: 'active', title: t('analytics.activeContracts'), align: 'right', render: (_, m) => m.active_contracts },
              { key: 'expected', title: t('analytics.expected'), align: 'right', render: (_, m) => formatMoney(m.expected) },
              { key: 'collected', title: t('analytics.collected'), align: 'right', render: (_, m) => formatMoney(m.collected) },
              {
                key: 'outstanding',
                title: t('analytics.outstanding'),
                align: 'right',
                render: (_, m) => (m.due ? formatMoney(m.outstanding) : <Tag>{t('analytics.notDue')}</Tag>),
              },
              { key: 'rate', title: t('analytics.collectionRate'), align: 'right', render: (_, m) => (m.due ? percent(m.collection_rate) : '–') },
            ]}
          />
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <OutstandingTable title={t('analytics.byCategory')} rows={data.by_category} empty={t('analytics.noCategory')} />
            </Col>
            <Col xs={24} xl={12}>
              <OutstandingTable title={t('analytics.byClass')} rows={data.by_class} empty="–" />
            </Col>
          </Row>
        </>
      )}
    </Space>
  );
}

/** /analytics/ (ROOT, ADMIN): the Contracts tab. */
export default function AnalyticsPage() {
  const { t } = useTranslation();
  return (
    <Card>
      <ScreenTitle style={{ marginTop: 0 }}>{t('analytics.title')}</ScreenTitle>
      <Tabs items={[{ key: 'contracts', label: t('analytics.contractsTab'), children: <ContractsAnalytics /> }]} />
    </Card>
  );
}
