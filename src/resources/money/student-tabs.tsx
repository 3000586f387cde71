import { UnorderedListOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import { Button, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CONTRACTS } from '../../../domain/resources/money';
import { formatDate, formatMoney, type Translate } from '../../engine/fields/format';
import { footerOf } from '../../engine/list/list-table';
import { PaymentsList } from './payments-list';
import type { Contract } from './types';

const PAGE = 10;

/** A student's contracts, newest first, each a click away from its month-by-month status. */
function StudentContracts({ id }: { id: number }) {
  const { t: translate } = useTranslation();
  const t = translate as Translate;
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const { result, query } = useList<Contract>({
    resource: CONTRACTS.name,
    filters: [{ field: 'student_id', operator: 'eq', value: id }],
    sorters: CONTRACTS.defaultSort.map((s) => ({ field: s.field, order: s.order })),
    pagination: { currentPage: page, pageSize: PAGE, mode: 'server' },
  });
  return (
    <Table<Contract>
      size="small"
      rowKey="id"
      scroll={{ x: 'max-content' }}
      loading={query.isFetching}
      dataSource={result.data}
      locale={{ emptyText: t('table.empty') }}
      pagination={{ current: page, pageSize: PAGE, total: result.total, onChange: setPage, showTotal: footerOf(t) }}
      columns={[
        { key: 'dates', title: t('contracts.fields.start_date'), render: (_, c) => `${formatDate(c.start_date)} – ${formatDate(c.end_date)}` },
        { key: 'category', title: t('contracts.fields.category_id'), render: (_, c) => c.category?.name },
        { key: 'month_cost', title: t('contracts.fields.month_cost'), align: 'right', render: (_, c) => formatMoney(c.month_cost) },
        { key: 'total_cost', title: t('contracts.fields.total_cost'), align: 'right', render: (_, c) => formatMoney(c.total_cost) },
        { key: 'total_paid', title: t('contracts.fields.total_paid'), align: 'right', render: (_, c) => formatMoney(c.total_paid) },
        { key: 'rest', title: t('contracts.fields.rest'), align: 'right', render: (_, c) => formatMoney(c.rest) },
        {
          key: 'receipt',
          title: t('money.receipt'),
          render: (_, c) => <Tag>{c.with_receipt ? t('money.withReceipt') : t('money.withoutReceipt')}</Tag>,
        },
        {
          key: 'actions',
          title: t('table.actions'),
          render: (_, c) => (
            <Space>
              <Button size="small" icon={<UnorderedListOutlined />} onClick={() => navigate(`/contracts/?mode=status&contract=${c.id}`)}>
                {t('contracts.status.open')}
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );
}

/** The student's detail tabs about money: Contracts and Payments. */
export default function StudentMoneyTab({ tab, id }: { tab: 'contracts' | 'payments'; id: number }) {
  return tab === 'contracts' ? <StudentContracts id={id} /> : <PaymentsList owner={{ field: 'student_id', id }} />;
}
