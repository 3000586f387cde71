import { UnorderedListOutlined } from '@ant-design/icons';
import { Button, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CONTRACTS } from '../../../domain/resources/money';
import { formatDate, formatMoney, type Translate } from '../../engine/fields/format';
import { RelatedRows } from '../../engine/view/related-rows';
import { PaymentsList } from './payments-list';
import type { Contract } from './types';

/** A student's contracts, newest first, each a click away from its month-by-month status. */
function StudentContracts({ id }: { id: number }) {
  const { t: translate } = useTranslation();
  const t = translate as Translate;
  const navigate = useNavigate();
  return (
    <RelatedRows<Contract>
      resource={CONTRACTS.name}
      filters={[{ field: 'student_id', operator: 'eq', value: id }]}
      sort={CONTRACTS.defaultSort.map((s) => ({ field: s.field, order: s.order }))}
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
