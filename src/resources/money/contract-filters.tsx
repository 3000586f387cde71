import { FilterOutlined } from '@ant-design/icons';
import type { CrudFilter, CrudFilters } from '@refinedev/core';
import { Badge, Button, Checkbox, DatePicker, Form, Radio, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DATE_FORMAT } from '../../engine/fields/format';
import { ReferenceSelect } from '../../engine/fields/reference-select';
import type { ListState } from '../../engine/list/list-table';
import { ModeDrawer } from '../../engine/mode-drawer';
import { ListTotals } from './totals';

/** The filters of the filter drawer, beside those of the columns (student, category, start date, rest). */
const DRAWER_FIELDS = ['class_id', 'active_on', 'paid_month', 'unpaid_month', 'is_register_paid', 'rest'] as const;

const valueOf = (filters: CrudFilters, field: string, operator = 'eq'): unknown => {
  const found = filters.find((f) => 'field' in f && f.field === field && f.operator === operator);
  return found && 'value' in found ? found.value : undefined;
};

const thisMonth = () => dayjs().format('YYYY-MM');

interface Draft {
  class_id: number | null;
  active_on: string | null;
  month: string | null;
  paid: 'paid' | 'unpaid';
  is_register_paid: 'true' | 'false' | null;
  rest_above_zero: boolean;
}

function draftOf(filters: CrudFilters): Draft {
  const paid = valueOf(filters, 'paid_month');
  const unpaid = valueOf(filters, 'unpaid_month');
  const registered = valueOf(filters, 'is_register_paid');
  return {
    class_id: valueOf(filters, 'class_id') === undefined ? null : Number(valueOf(filters, 'class_id')),
    active_on: (valueOf(filters, 'active_on') as string | undefined) ?? null,
    month: ((paid ?? unpaid) as string | undefined) ?? null,
    paid: paid !== undefined ? 'paid' : 'unpaid',
    is_register_paid: registered === undefined ? null : (String(registered) as 'true' | 'false'),
    rest_above_zero: valueOf(filters, 'rest', 'gte') !== undefined,
  };
}

function filtersOf(d: Draft): CrudFilter[] {
  return [
    { field: 'class_id', operator: 'eq', value: d.class_id ?? undefined },
    { field: 'active_on', operator: 'eq', value: d.active_on ?? undefined },
    { field: 'paid_month', operator: 'eq', value: d.month && d.paid === 'paid' ? d.month : undefined },
    { field: 'unpaid_month', operator: 'eq', value: d.month && d.paid === 'unpaid' ? d.month : undefined },
    { field: 'is_register_paid', operator: 'eq', value: d.is_register_paid ?? undefined },
    { field: 'rest', operator: 'gte', value: d.rest_above_zero ? 1 : undefined },
  ];
}

/**
 * Above the contracts list: with or without receipt (`contract_type` in the URL), "unpaid this
 * month" in one click, the filter drawer (`?mode=filter`), and the totals of every filtered row.
 */
export function ContractToolbar({ state }: { state: ListState }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filterOpen = params.get('mode') === 'filter';
  const contractType = params.get('contract_type');
  const receipt = valueOf(state.filters, 'with_receipt');

  // A shared link with contract_type=true|false filters the list the same way.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the URL's value starts it
  useEffect(() => {
    const wanted = contractType === 'true' || contractType === 'false' ? contractType : undefined;
    if (String(receipt ?? '') !== String(wanted ?? '')) state.setFilters([{ field: 'with_receipt', operator: 'eq', value: wanted }]);
  }, [contractType]);

  const setParam = (name: string, value: string | null) =>
    // from the URL as it is now (the list writes its filters there too)
    setParams(() => {
      const copy = new URLSearchParams(window.location.search);
      if (value === null) copy.delete(name);
      else copy.set(name, value);
      return copy;
    });

  const unpaidNow = valueOf(state.filters, 'unpaid_month') === thisMonth();
  const active = DRAWER_FIELDS.filter((f) => valueOf(state.filters, f, f === 'rest' ? 'gte' : 'eq') !== undefined).length;

  return (
    <Space direction="vertical" align="end">
      <Space wrap>
        <Select
          aria-label={t('money.receipt')}
          style={{ width: 170 }}
          value={contractType === 'true' || contractType === 'false' ? contractType : 'all'}
          onChange={(v) => setParam('contract_type', v === 'all' ? null : v)}
          options={[
            { value: 'all', label: t('money.allReceipts') },
            { value: 'true', label: t('money.withReceipt') },
            { value: 'false', label: t('money.withoutReceipt') },
          ]}
        />
        <Button
          type={unpaidNow ? 'primary' : 'default'}
          onClick={() =>
            state.setFilters([
              { field: 'paid_month', operator: 'eq', value: undefined },
              { field: 'unpaid_month', operator: 'eq', value: unpaidNow ? undefined : thisMonth() },
            ])
          }
        >
          {t('contracts.filters.unpaidThisMonth')}
        </Button>
        <Badge count={active} size="small">
          <Button icon={<FilterOutlined />} onClick={() => setParam('mode', 'filter')}>
            {t('contracts.filters.open')}
          </Button>
        </Badge>
      </Space>
      <ListTotals
        state={state}
        items={[
          { key: 'total_cost', label: t('contracts.fields.total_cost') },
          { key: 'total_paid', label: t('contracts.fields.total_paid') },
          { key: 'rest', label: t('contracts.fields.rest') },
        ]}
      />
      <ModeDrawer open={filterOpen} title={t('contracts.filters.title')} onClose={() => setParam('mode', null)}>
        {filterOpen && (
          <FilterForm
            initial={draftOf(state.filters)}
            onApply={(d) => {
              state.setFilters(filtersOf(d));
              setParam('mode', null);
            }}
            onCancel={() => setParam('mode', null)}
          />
        )}
      </ModeDrawer>
    </Space>
  );
}

function FilterForm({ initial, onApply, onCancel }: { initial: Draft; onApply(d: Draft): void; onCancel(): void }) {
  const { t } = useTranslation();
  const [d, setD] = useState<Draft>(initial);
  const set = (patch: Partial<Draft>) => setD((current) => ({ ...current, ...patch }));
  return (
    <Form layout="vertical" onFinish={() => onApply(d)}>
      <Form.Item label={t('contracts.filters.class')}>
        <ReferenceSelect reference="classes" value={d.class_id} onChange={(v) => set({ class_id: (v as number | null) ?? null })} />
      </Form.Item>
      <Form.Item label={t('contracts.filters.activeOn')}>
        <DatePicker
          format={DATE_FORMAT}
          style={{ width: '100%' }}
          value={d.active_on ? dayjs(d.active_on) : null}
          onChange={(v) => set({ active_on: v ? v.format('YYYY-MM-DD') : null })}
        />
      </Form.Item>
      <Form.Item label={t('contracts.filters.month')}>
        <Space wrap>
          <DatePicker
            picker="month"
            format="MM/YYYY"
            value={d.month ? dayjs(`${d.month}-01`) : null}
            onChange={(v) => set({ month: v ? v.format('YYYY-MM') : null })}
          />
          <Radio.Group
            value={d.paid}
            onChange={(e) => set({ paid: e.target.value as Draft['paid'] })}
            options={[
              { value: 'paid', label: t('contracts.status.paidTag') },
              { value: 'unpaid', label: t('contracts.status.unpaidTag') },
            ]}
          />
        </Space>
      </Form.Item>
      <Form.Item label={t('contracts.fields.is_register_paid')}>
        <Select
          allowClear
          value={d.is_register_paid}
          onChange={(v) => set({ is_register_paid: v ?? null })}
          options={[
            { value: 'true', label: t('contracts.filters.registerPaid') },
            { value: 'false', label: t('contracts.filters.registerUnpaid') },
          ]}
        />
      </Form.Item>
      <Form.Item>
        <Checkbox checked={d.rest_above_zero} onChange={(e) => set({ rest_above_zero: e.target.checked })}>
          {t('contracts.filters.restAboveZero')}
        </Checkbox>
      </Form.Item>
      <Space>
        <Button onClick={onCancel}>{t('buttons.cancel')}</Button>
        <Button onClick={() => onApply({ ...d, class_id: null, active_on: null, month: null, is_register_paid: null, rest_above_zero: false })}>
          {t('buttons.clear')}
        </Button>
        <Button type="primary" htmlType="submit">
          {t('buttons.filter')}
        </Button>
      </Space>
    </Form>
  );
}
