import { UnorderedListOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CONTRACTS } from '../../../domain/resources/money';
import { formatDate, formatMoney, type RefLabel } from '../../engine/fields/format';
import { monthFee } from '../../../domain/money';
import { ModeDrawer, useModeParams } from '../../engine/mode-drawer';
import { ResourceScreen, type Row } from '../../engine/resource-screen';
import { PayerFormItem } from '../guardians/payer-item';
import { ContractToolbar } from './contract-filters';
import { newContractDates } from './contract-dates';
import { MANAGERS } from '../../../domain/access';
import { useRole } from '../lessons/status';
import { ContractReminders } from './contract-reminders';
import { ContractStatusView } from './contract-status';
import { PaymentsList } from './payments-list';
import { PayerCell, RemindNowButton } from './unpaid-payer';
import { monthShort, NEW_CONTRACT_PAYER, NEW_CONTRACT_STUDENT, type Contract } from './types';

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);

/**
 * The new-contract form opened from a student (`?mode=create&student_id=…&payer_guardian_id=…`)
 * starts with them; once the form is gone they leave the address, so the next one starts empty.
 * Every new contract starts from today to the school year's end (contract-dates.ts).
 */
function useNewContractFor() {
  const [params, setParams] = useSearchParams();
  const creating = params.get('mode') === 'create';
  const named = params.has(NEW_CONTRACT_STUDENT) || params.has(NEW_CONTRACT_PAYER);
  useEffect(() => {
    if (creating || !named) return;
    setParams(
      () => {
        const copy = new URLSearchParams(window.location.search);
        copy.delete(NEW_CONTRACT_STUDENT);
        copy.delete(NEW_CONTRACT_PAYER);
        return copy;
      },
      { replace: true },
    );
  }, [creating, named, setParams]);
  return () => {
    const current = new URLSearchParams(window.location.search);
    const values: Record<string, number | string> = { ...newContractDates() };
    for (const name of [NEW_CONTRACT_STUDENT, NEW_CONTRACT_PAYER]) {
      const id = idParam(current.get(name));
      if (id !== undefined) values[name] = id;
    }
    return values;
  };
}

/** "Μαρία Παππά · 01/09/2026 – 30/06/2027" */
const contractName = (row: Row) =>
  `${(row.student as RefLabel | null | undefined)?.name ?? ''} · ${formatDate(row.start_date as string)} – ${formatDate(row.end_date as string)}`;

/**
 * /contracts/: the list with the secretary's filters and the totals of the filtered rows; the
 * drawers of create, update and view; `?mode=status&contract=ID`, the contract month by month.
 */
export default function ContractsPage() {
  const { t } = useTranslation();
  const status = useModeParams(CONTRACTS.screen.entity, ['status'] as const);
  const statusOpen = status.mode === 'status' && status.id !== null;
  // what was sent to the family: for administrators
  const seesReminders = MANAGERS.includes(useRole());
  // turning reminders off or on is ADMIN's too: the office's form leaves the switch out
  const formFields = seesReminders ? undefined : CONTRACTS.fields.map((f) => f.name).filter((name) => name !== 'reminders_enabled');
  const createDefaults = useNewContractFor();
  return (
    <>
      <ResourceScreen
        def={CONTRACTS}
        form={{
          fields: formFields,
          defaults: createDefaults,
          item: (field, _mode, record) => (field.name === 'payer_guardian_id' ? <PayerFormItem record={record} /> : undefined),
        }}
        // the payer is picked among the student's guardians
        rowName={contractName}
        toolbar={(state) => <ContractToolbar state={state} />}
        // the list of a month's unpaid says which months each contract owes and how much
        moreColumns={(state) =>
          state.filters.some((f) => 'field' in f && f.field === 'unpaid_month' && f.value !== undefined && f.value !== '')
            ? [
                {
                  key: 'unpaid_months',
                  title: t('contracts.fields.unpaid_months'),
                  render: (_, row) => ((row.unpaid_months as string[] | undefined) ?? []).map((m) => monthShort(t, m)).join(', '),
                },
                {
                  key: 'unpaid_amount',
                  title: t('contracts.fields.unpaid_amount'),
                  align: 'right',
                  render: (_, row) => formatMoney(row.unpaid_amount as number | undefined),
                },
                // who to call, and what her whole family owes (all her contracts), with her reminder now
                { key: 'payer', title: t('contracts.unpaid.payer'), render: (_, row) => <PayerCell row={row} /> },
                {
                  key: 'family_unpaid',
                  title: t('contracts.unpaid.family_unpaid'),
                  align: 'right',
                  render: (_, row) => (row.family_unpaid === null || row.family_unpaid === undefined ? '—' : formatMoney(Number(row.family_unpaid))),
                },
                { key: 'remind', title: '', render: (_, row) => <RemindNowButton row={row} /> },
              ]
            : []
        }
        columns={{
          // a month's fee: month_cost less discount_percent, rounded to the cent (docs/rules.md, Contracts)
          month_cost: {
            render: (row) => formatMoney(monthFee({ month_cost: Number(row.month_cost ?? 0), discount_percent: Number(row.discount_percent ?? 0) })),
          },
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
        view={{
          tabs: (row) => [
            { key: 'status', label: t('contracts.status.title'), children: <ContractStatusView id={row.id} withPayments={false} /> },
            { key: 'payments', label: t('contracts.tabs.payments'), children: <PaymentsList owner={{ field: 'contract_id', id: row.id }} /> },
            ...(seesReminders ? [{ key: 'reminders', label: t('contractReminders.tab'), children: <ContractReminders contract={row as Contract} /> }] : []),
          ],
        }}
      />
      <ModeDrawer open={statusOpen} title={t('contracts.status.title')} onClose={status.close}>
        {statusOpen && <ContractStatusView key={status.id} id={status.id!} />}
      </ModeDrawer>
    </>
  );
}
