import { Card, Descriptions, Space, Spin, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { PortalContractsAnswer } from '../../../domain/answers/portal';
import type { StatusLine } from '../../../domain/money';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { monthLabel } from '../../resources/money/types';
import { ChildScreen, LoadError, type PortalChild, usePortal } from './portal-data';

type Contract = z.infer<typeof PortalContractsAnswer>['data'][number];

/** Paid, not due yet, or unpaid: as the office's month-by-month view says it. */
function LineState({ line }: { line: StatusLine }) {
  const { t } = useTranslation();
  if (line.left === 0) return <Tag color="green">{t('contracts.status.paidTag')}</Tag>;
  if (line.month && line.month > dayjs().format('YYYY-MM')) return <Tag>{t('contracts.status.notDueTag')}</Tag>;
  return <Tag color="red">{t('contracts.status.unpaidTag')}</Tag>;
}

function ContractCard({ contract }: { contract: Contract }) {
  const { t, i18n } = useTranslation();
  const lineName = (line: StatusLine) => (line.kind === 'REGISTER' ? t('contracts.status.register') : monthLabel(line.month, i18n.language));
  return (
    <Card
      size="small"
      data-contract-id={contract.id}
      title={
        <h2 style={{ fontSize: 'inherit', margin: 0 }}>
          {contract.category ?? t('portal.contracts.contract')} · {formatDate(contract.start_date)} – {formatDate(contract.end_date)}
        </h2>
      }
      extra={<Tag>{t(`enums.${contract.status}`)}</Tag>}
    >
      <Descriptions size="small" column={{ xs: 1, sm: 3 }} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('contracts.fields.total_cost')}>
          <span data-figure="total">{formatMoney(contract.total_cost)}</span>
        </Descriptions.Item>
        {/* What pays the contract: the credit to refund is shown apart, so total − paid = left. */}
        <Descriptions.Item label={t('contracts.status.paid')}>
          <span data-figure="paid">{formatMoney(contract.total_paid - contract.credit)}</span>
        </Descriptions.Item>
        {contract.credit > 0 && (
          <Descriptions.Item label={t('contracts.fields.credit')}>
            <span data-figure="credit">{formatMoney(contract.credit)}</span>
          </Descriptions.Item>
        )}
        {contract.refunded > 0 && (
          <Descriptions.Item label={t('contracts.fields.refunded')}>
            <span data-figure="refunded">{formatMoney(contract.refunded)}</span>
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('contracts.status.left')}>
          <Typography.Text strong data-figure="left">
            {formatMoney(contract.rest)}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Table<StatusLine>
        size="small"
        rowKey={(line) => `${line.kind}-${line.month}`}
        pagination={false}
        dataSource={contract.lines}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'line', title: t('contracts.status.line'), render: (_, line) => lineName(line) },
          { key: 'owed', title: t('contracts.status.owed'), align: 'right', render: (_, line) => formatMoney(line.owed) },
          { key: 'paid', title: t('contracts.status.paid'), align: 'right', render: (_, line) => formatMoney(line.paid) },
          { key: 'left', title: t('contracts.status.left'), align: 'right', render: (_, line) => formatMoney(line.left) },
          { key: 'state', title: t('contracts.status.state'), render: (_, line) => <LineState line={line} /> },
        ]}
      />
    </Card>
  );
}

function ChildContracts({ child }: { child: PortalChild }) {
  const { t } = useTranslation();
  const { data, loading, error } = usePortal<Contract[]>(`/api/portal/children/${child.id}/contracts`);
  if (loading) return <Spin />;
  if (error) return <LoadError error={error} />;
  if (!data?.length) return <Typography.Text>{t('portal.contracts.none')}</Typography.Text>;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {data.map((contract) => (
        <ContractCard key={contract.id} contract={contract} />
      ))}
    </Space>
  );
}

/** /portal/contracts/: the chosen child's contracts, month by month: what is due, paid and left. */
export default function PortalContracts() {
  const { t } = useTranslation();
  return <ChildScreen title={t('portal.contracts.title')} render={(child) => <ChildContracts key={child.id} child={child} />} />;
}
