import { PlusOutlined } from '@ant-design/icons';
import { CanAccess, useCustom } from '@refinedev/core';
import { Alert, Button, Grid, List, Space, Spin, Table, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatusLine } from '../../../domain/money';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { API_URL } from '../../providers/dataProvider';
import { errorText } from '../../providers/errors';
import { ContractLifecycle } from './contract-lifecycle';
import { ContractRefund } from './contract-refund';
import { PaymentDrawer } from './payment-form';
import { PaymentsList } from './payments-list';
import { contractAnswerKey } from './refresh';
import { MoneyTotals } from './totals';
import { monthLabel, type ContractStatus, type PaymentDraft } from './types';
import { SectionTitle } from '../../components/headings';

/**
 * `?mode=status&contract=ID`: the contract month by month. The registration, then each month,
 * with what is owed, paid and left, paid or not, and a one-click "record payment" that opens
 * the payment form with the kind, the month and what is left; the contract's payments below.
 */
export function ContractStatusView({ id, withPayments = true }: { id: number; withPayments?: boolean }) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<PaymentDraft | null>(null);
  const phone = Grid.useBreakpoint().sm === false;
  // A withdrawal, its undoing, a payment or the contract saved changes these lines.
  const { result, query } = useCustom<{ data: ContractStatus }>({
    url: `${API_URL}/contracts/${id}/status`,
    method: 'get',
    queryOptions: { queryKey: contractAnswerKey(id, 'status') },
  });
  const status = result.data?.data;
  if (query.isLoading) return <Spin />;
  if (query.isError || !status) return <Alert type="error" message={errorText(query.error)} />;
  const { contract } = status;

  const lineName = (line: StatusLine) => (line.kind === 'REGISTER' ? t('contracts.status.register') : monthLabel(line.month, i18n.language));
  const lineKey = (line: StatusLine) => (line.kind === 'REGISTER' ? 'REGISTER' : (line.month ?? ''));
  const stateTag = (line: StatusLine) => {
    if (line.left === 0) return <Tag color="green">{t('contracts.status.paidTag')}</Tag>;
    // a month still ahead is not owed yet: only this month and the ones behind are unpaid
    if (line.month && line.month > dayjs().format('YYYY-MM')) return <Tag>{t('contracts.status.notDueTag')}</Tag>;
    return <Tag color="red">{t('contracts.status.unpaidTag')}</Tag>;
  };
  const recordButton = (line: StatusLine, block = false) =>
    line.left > 0 && (
      <CanAccess resource="payments" action="create">
        <Button
          size="small"
          type="primary"
          block={block}
          icon={<PlusOutlined />}
          onClick={() => setDraft({ contract_id: id, kind: line.kind, month: line.kind === 'MONTHLY' ? line.month : null, amount: line.left })}
        >
          {t('contracts.status.record')}
        </Button>
      </CanAccess>
    );
  const lines = phone ? (
    // on a phone each line is a card of its own, its button under its figures: nothing to scroll sideways to
    <List<StatusLine>
      size="small"
      dataSource={status.lines}
      rowKey={(line) => `${line.kind}-${line.month}`}
      renderItem={(line) => (
        <List.Item data-line={lineKey(line)} style={{ display: 'block' }}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong>{lineName(line)}</Typography.Text>
            {stateTag(line)}
          </Space>
          <Space size={[12, 0]} wrap style={{ margin: '4px 0' }}>
            <span>
              {t('contracts.status.owed')}: {formatMoney(line.owed)}
            </span>
            <span>
              {t('contracts.status.paid')}: {formatMoney(line.paid)}
            </span>
            <Typography.Text strong>
              {t('contracts.status.left')}: {formatMoney(line.left)}
            </Typography.Text>
          </Space>
          {recordButton(line, true)}
        </List.Item>
      )}
    />
  ) : (
    <Table<StatusLine>
      size="small"
      rowKey={(line) => `${line.kind}-${line.month}`}
      pagination={false}
      dataSource={status.lines}
      scroll={{ x: 'max-content' }}
      onRow={(line) => ({ 'data-line': lineKey(line) }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        { key: 'line', title: t('contracts.status.line'), render: (_, line) => lineName(line) },
        { key: 'owed', title: t('contracts.status.owed'), align: 'right', render: (_, line) => formatMoney(line.owed) },
        { key: 'paid', title: t('contracts.status.paid'), align: 'right', render: (_, line) => formatMoney(line.paid) },
        { key: 'left', title: t('contracts.status.left'), align: 'right', render: (_, line) => formatMoney(line.left) },
        { key: 'state', title: t('contracts.status.state'), render: (_, line) => stateTag(line) },
        { key: 'record', title: t('table.actions'), render: (_, line) => recordButton(line) },
      ]}
    />
  );

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <SectionTitle size={4} style={{ margin: 0 }}>
        {contract.student?.name} · {formatDate(contract.start_date)} – {formatDate(contract.end_date)}
      </SectionTitle>
      <Space wrap>
        {contract.category?.name && <Tag>{contract.category.name}</Tag>}
        <Tag color={contract.with_receipt ? 'blue' : 'default'}>{contract.with_receipt ? t('money.withReceipt') : t('money.withoutReceipt')}</Tag>
      </Space>
      <ContractLifecycle contract={contract} credit={status.credit} />
      <ContractRefund status={status} />
      <MoneyTotals
        items={[
          { key: 'total_cost', label: t('contracts.fields.total_cost'), value: status.total_cost },
          { key: 'total_paid', label: t('contracts.fields.total_paid'), value: status.total_paid },
          // Credit to refund and what was refunded, when there is any: the figures then add up.
          ...(status.credit > 0 ? [{ key: 'credit', label: t('contracts.fields.credit'), value: status.credit }] : []),
          ...(status.refunded > 0 ? [{ key: 'refunded', label: t('contracts.fields.refunded'), value: status.refunded }] : []),
          { key: 'rest', label: t('contracts.fields.rest'), value: status.rest },
        ]}
      />
      <Space wrap>
        <CanAccess resource="payments" action="create">
          <Button icon={<PlusOutlined />} onClick={() => setDraft({ contract_id: id, kind: 'EXTRA' })}>
            {t('contracts.status.extra')}
          </Button>
        </CanAccess>
      </Space>
      {withPayments ? (
        <Tabs
          items={[
            { key: 'months', label: t('contracts.status.months'), children: lines },
            { key: 'payments', label: t('contracts.tabs.payments'), children: <PaymentsList owner={{ field: 'contract_id', id }} /> },
          ]}
        />
      ) : (
        lines
      )}
      <PaymentDrawer draft={draft} onClose={() => setDraft(null)} onSaved={() => void query.refetch()} />
    </Space>
  );
}
