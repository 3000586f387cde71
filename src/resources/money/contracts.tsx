import { UnorderedListOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CONTRACTS } from '../../../domain/resources/money';
import { formatDate, type RefLabel } from '../../engine/fields/format';
import { ModeDrawer, useModeParams } from '../../engine/mode-drawer';
import { ResourceScreen, type Row } from '../../engine/resource-screen';
import { ContractToolbar } from './contract-filters';
import { ContractStatusView } from './contract-status';
import { PaymentsList } from './payments-list';

/** "Μαρία Παππά · 01/09/2026 – 30/06/2027" */
export const contractName = (row: Row) =>
  `${(row.student as RefLabel | null | undefined)?.name ?? ''} · ${formatDate(row.start_date as string)} – ${formatDate(row.end_date as string)}`;

/**
 * /contracts/: the list with the secretary's filters and the totals of the filtered rows; the
 * drawers of create, update and view; `?mode=status&contract=ID`, the contract month by month.
 */
export default function ContractsPage() {
  const { t } = useTranslation();
  const status = useModeParams(CONTRACTS.screen.entity, ['status'] as const);
  const statusOpen = status.mode === 'status' && status.id !== null;
  return (
    <>
      <ResourceScreen
        def={CONTRACTS}
        rowName={contractName}
        toolbar={(state) => <ContractToolbar state={state} />}
        columns={{
          is_register_paid: {
            render: (row) =>
              row.is_register_paid ? <Tag color="green">{t('contracts.status.paidTag')}</Tag> : <Tag color="red">{t('contracts.status.unpaidTag')}</Tag>,
          },
        }}
        rowActions={(row) => (
          <Button
            size="small"
            icon={<UnorderedListOutlined />}
            title={t('contracts.status.open')}
            aria-label={t('contracts.status.open')}
            onClick={() => status.open('status', row.id)}
          />
        )}
        viewTabs={(row) => [
          { key: 'status', label: t('contracts.status.title'), children: <ContractStatusView id={row.id} withPayments={false} /> },
          { key: 'payments', label: t('contracts.tabs.payments'), children: <PaymentsList owner={{ field: 'contract_id', id: row.id }} /> },
        ]}
      />
      <ModeDrawer open={statusOpen} title={t('contracts.status.title')} onClose={status.close}>
        {statusOpen && <ContractStatusView key={status.id} id={status.id!} />}
      </ModeDrawer>
    </>
  );
}
