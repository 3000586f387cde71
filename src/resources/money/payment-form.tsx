import { useForm } from '@refinedev/antd';
import { useCustom, useOne, type HttpError } from '@refinedev/core';
import { Alert, DatePicker, Form, Input, Space, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../domain/fields';
import { PAYMENTS } from '../../../domain/resources/money';
import { FormButtons } from '../../engine/form/drawer-form';
import { labelOf } from '../../engine/fields/format';
import { FieldFormItem, type InputContext } from '../../engine/fields/input';
import { ModeDrawer } from '../../engine/mode-drawer';
import type { Contract, Payment, PaymentDraft } from './types';
import { useMoneyRefresh } from './refresh';
import { useT } from '../../providers/i18nProvider';

const field = (name: string) => PAYMENTS.fields.find((f) => f.name === name) as FieldDef;

/**
 * Every figure that a payment moves at once: the contracts' figures, their month-by-month
 * status and the account (custom queries, not tied to a resource), the payments' lists.
 */
interface Props {
  /** A new payment (prefilled from a line of the contract) or the id of one to correct. */
  draft?: PaymentDraft | null;
  id?: number | null;
  onClose(): void;
  onSaved?(): void;
}

/** The payment drawer: kind (the month for MONTHLY), amount in euro, method, with receipt (as its contract unless changed; the number is given on save), date. */
export function PaymentDrawer({ draft, id, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const open = Boolean(draft) || Boolean(id);
  return (
    <ModeDrawer open={open} title={id ? t('payments.edit') : t('payments.create')} onClose={onClose}>
      {open && <PaymentForm key={id ?? `new-${draft?.kind}-${draft?.month}`} draft={draft ?? null} id={id ?? null} onClose={onClose} onSaved={onSaved} />}
    </ModeDrawer>
  );
}

function PaymentForm({ draft, id, onClose, onSaved }: { draft: PaymentDraft | null; id: number | null; onClose(): void; onSaved?(): void }) {
  const { t } = useT();
  const refresh = useMoneyRefresh();
  const [failure, setFailure] = useState<string | null>(null);
  const { formProps, saveButtonProps, form, formLoading, query } = useForm<Payment, HttpError>({
    resource: PAYMENTS.name,
    action: id ? 'edit' : 'create',
    id: id ?? undefined,
    redirect: false,
    onMutationSuccess: async () => {
      await refresh();
      onSaved?.();
      onClose();
    },
    onMutationError: (error) => setFailure(error.message),
    successNotification: () => ({ type: 'success', message: t('payments.saved') }),
    errorNotification: false,
  });
  const next = useCustom<{ data: { bill_number: string } }>({ url: '/api/payments/next-bill-number', method: 'get', queryOptions: { enabled: !id } });
  const nextNumber = next.result.data?.data?.bill_number;
  // A new payment is "with receipt" as its contract, unless changed here.
  const contract = useOne<Contract>({ resource: 'contracts', id: draft?.contract_id ?? 0, queryOptions: { enabled: !id && Boolean(draft?.contract_id) } });
  const contractWithReceipt = contract.result?.with_receipt;
  useEffect(() => {
    if (!id && typeof contractWithReceipt === 'boolean' && !form.isFieldTouched('with_receipt')) form.setFieldValue('with_receipt', contractWithReceipt);
  }, [id, contractWithReceipt, form]);
  const withReceipt = Form.useWatch('with_receipt', form) as boolean | undefined;
  const issued = Boolean(id && query?.data?.data.receipt_id);
  const kind = Form.useWatch('kind', form) as string | undefined;
  const ctx: InputContext = { t, mode: id ? 'update' : 'create', record: query?.data?.data };
  const label = (name: string) => labelOf(t, PAYMENTS, field(name));

  const initial = id
    ? formProps.initialValues
    : {
        contract_id: draft?.contract_id,
        kind: draft?.kind ?? 'MONTHLY',
        month: draft?.month ?? (draft?.kind === 'MONTHLY' || !draft?.kind ? dayjs().format('YYYY-MM') : null),
        amount: draft?.amount,
        method: 'CASH',
        with_receipt: contractWithReceipt ?? true,
        paid_on: dayjs().format('YYYY-MM-DD'),
      };

  return (
    <Spin spinning={formLoading}>
      <Form
        {...formProps}
        layout="vertical"
        initialValues={initial}
        onValuesChange={() => setFailure(null)}
        onFinish={(raw) => {
          const values = raw as Record<string, unknown>;
          const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
          const body: Record<string, unknown> = {
            kind: values.kind,
            month: values.kind === 'MONTHLY' ? values.month : null,
            amount: values.amount,
            method: values.method,
            with_receipt: values.with_receipt === true,
            paid_on: values.paid_on,
            description: text(values.description),
          };
          if (id) body.version = values.version ?? query?.data?.data.version;
          else body.contract_id = values.contract_id;
          return formProps.onFinish?.(body);
        }}
      >
        <Form.Item name="version" hidden>
          <Input />
        </Form.Item>
        <Form.Item name="contract_id" hidden>
          <Input />
        </Form.Item>
        <FieldFormItem field={field('kind')} label={label('kind')} ctx={ctx} />
        <Form.Item
          name="month"
          label={label('month')}
          hidden={kind !== 'MONTHLY'}
          rules={kind === 'MONTHLY' ? [{ required: true, message: t('forms.required') }] : []}
          getValueProps={(value: unknown) => ({ value: typeof value === 'string' && value ? dayjs(`${value}-01`) : null })}
          normalize={(value: Dayjs | null) => (value ? value.format('YYYY-MM') : null)}
        >
          <DatePicker picker="month" format="MM/YYYY" style={{ width: '100%' }} />
        </Form.Item>
        <FieldFormItem field={field('amount')} label={label('amount')} ctx={ctx} />
        <FieldFormItem field={field('method')} label={label('method')} ctx={ctx} />
        <FieldFormItem
          field={field('with_receipt')}
          label={label('with_receipt')}
          ctx={ctx}
          extra={
            <Space size={4} wrap>
              {issued ? (
                <span>{t('payments.receiptIssued', { number: query?.data?.data.bill_number ?? '' })}</span>
              ) : withReceipt ? (
                nextNumber && <span>{t('payments.nextReceipt', { number: nextNumber })}</span>
              ) : (
                <span>{t('payments.withoutReceiptHint')}</span>
              )}
            </Space>
          }
        />
        <FieldFormItem field={field('paid_on')} label={label('paid_on')} ctx={ctx} />
        <FieldFormItem field={field('description')} label={label('description')} ctx={ctx} />
        {failure && <Alert type="error" showIcon message={failure} style={{ marginBottom: 16 }} role="alert" />}
        <FormButtons onCancel={onClose} saveButtonProps={saveButtonProps} />
      </Form>
    </Spin>
  );
}
