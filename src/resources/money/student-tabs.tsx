import { PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { CreateButton } from '@refinedev/antd';
import { useOne } from '@refinedev/core';
import { Button, Space, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { CONTRACTS } from '../../../domain/resources/money';
import { STUDENTS } from '../../../domain/resources/people';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { RelatedRows } from '../../engine/view/related-rows';
import { PaymentsList } from './payments-list';
import { NEW_CONTRACT_PAYER, NEW_CONTRACT_STUDENT, type Contract } from './types';
import { useT } from '../../providers/i18nProvider';

/**
 * The contracts screen's new-contract form for this student, her first guardian as the payer
 * (an adult student without one pays herself).
 */
function newContractLink(studentId: number, guardianIds: readonly number[] | null | undefined): string {
  const query = new URLSearchParams({ mode: 'create', [NEW_CONTRACT_STUDENT]: String(studentId) });
  const payer = guardianIds?.[0];
  if (payer !== undefined) query.set(NEW_CONTRACT_PAYER, String(payer));
  return `${CONTRACTS.screen.route}?${query}`;
}

/** A student's contracts, newest first, each a click away from its month-by-month status. */
function StudentContracts({ id }: { id: number }) {
  const { t } = useT();
  const navigate = useNavigate();
  // the view behind this tab has read the student already: no second request
  const { result: student } = useOne<{ guardian_ids?: number[] | null }>({ resource: STUDENTS.name, id });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <CreateButton resource={CONTRACTS.name} icon={<PlusOutlined />} onClick={() => navigate(newContractLink(id, student?.guardian_ids))}>
        {t('contracts.create')}
      </CreateButton>
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
    </Space>
  );
}

/** The student's detail tabs about money: Contracts and Payments. */
export default function StudentMoneyTab({ tab, id }: { tab: 'contracts' | 'payments'; id: number }) {
  return tab === 'contracts' ? <StudentContracts id={id} /> : <PaymentsList owner={{ field: 'student_id', id }} />;
}
