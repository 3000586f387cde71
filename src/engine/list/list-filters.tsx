import type { CrudFilter, CrudFilters } from '@refinedev/core';
import { Button, Checkbox, DatePicker, Input, InputNumber, Space } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../domain/fields';
import { DATE_RANGE_PRESETS, presetRange } from './date-range-presets';
import { DATE_FORMAT } from '../fields/format';
import { ReferenceSelect } from '../fields/reference-select';
import type { Translate } from '../../providers/i18nProvider';

type Kind = 'like' | 'in' | 'range' | 'ref';

/** Which filter a field gets in a list, by type (the server accepts these operators). */
function filterKind(field: FieldDef): Kind | null {
  if (!field.filterable || field.writeOnly) return null;
  switch (field.type) {
    case 'TEXT':
    case 'LONG_TEXT':
    case 'EMAIL':
    case 'PHONE':
    case 'TAX_ID':
    case 'USERNAME':
      return 'like';
    case 'ENUM':
    case 'SINGLE_CHOICE':
    case 'MULTIPLE_CHOICE':
    case 'BOOLEAN':
      return 'in';
    case 'NUMBER':
    case 'MONEY':
    case 'DATE':
      return 'range';
    case 'REFERENCE':
    case 'REFERENCES':
      return field.reference && field.reference !== 'users' ? 'ref' : null;
    default:
      return null;
  }
}

const valueOf = (filters: CrudFilters, field: string, operator: string): unknown => {
  const found = filters.find((f) => 'field' in f && f.field === field && f.operator === operator);
  return found && 'value' in found ? found.value : undefined;
};

function Box({ children, onApply, onClear }: { children: ReactNode; onApply(): void; onClear(): void }) {
  const { t } = useTranslation();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keys typed in a filter must not reach the table header behind it
    <div style={{ padding: 8, minWidth: 220 }} onKeyDown={(e) => e.stopPropagation()}>
      <Space direction="vertical" style={{ width: '100%' }}>
        {children}
        <Space>
          <Button size="small" type="primary" onClick={onApply}>
            {t('buttons.filter')}
          </Button>
          <Button size="small" onClick={onClear}>
            {t('buttons.clear')}
          </Button>
        </Space>
      </Space>
    </div>
  );
}

interface DropdownProps {
  field: FieldDef;
  name: string;
  filters: CrudFilters;
  setFilters(filters: CrudFilter[]): void;
  close(): void;
  t: Translate;
}

function LikeFilter({ name, filters, setFilters, close }: DropdownProps) {
  const [value, setValue] = useState(String(valueOf(filters, name, 'contains') ?? ''));
  const apply = (v: string) => {
    setFilters([{ field: name, operator: 'contains', value: v.trim() || undefined }]);
    close();
  };
  return (
    <Box onApply={() => apply(value)} onClear={() => (setValue(''), apply(''))}>
      <Input autoFocus value={value} onChange={(e) => setValue(e.target.value)} onPressEnter={() => apply(value)} />
    </Box>
  );
}

function InFilter({ field, name, filters, setFilters, close, t }: DropdownProps) {
  const current = valueOf(filters, name, 'in');
  const [value, setValue] = useState<string[]>(Array.isArray(current) ? current.map(String) : []);
  const options =
    field.type === 'BOOLEAN'
      ? [
          { value: 'true', label: t('buttons.yes') },
          { value: 'false', label: t('buttons.no') },
        ]
      : (field.options ?? []).map((o) => ({ value: o, label: field.type === 'ENUM' ? t(`enums.${o}`, { defaultValue: o }) : o }));
  const apply = (v: string[]) => {
    setFilters([{ field: name, operator: 'in', value: v.length ? v : undefined }]);
    close();
  };
  return (
    <Box onApply={() => apply(value)} onClear={() => (setValue([]), apply([]))}>
      <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 4 }} options={options} value={value} onChange={(v) => setValue(v as string[])} />
    </Box>
  );
}

function RefFilter({ field, name, filters, setFilters, close }: DropdownProps) {
  const current = valueOf(filters, name, 'in');
  const [value, setValue] = useState<number[]>(Array.isArray(current) ? current.map(Number) : []);
  const apply = (v: number[]) => {
    setFilters([{ field: name, operator: 'in', value: v.length ? v : undefined }]);
    close();
  };
  return (
    <Box onApply={() => apply(value)} onClear={() => (setValue([]), apply([]))}>
      <div style={{ width: 260 }}>
        <ReferenceSelect multiple reference={field.reference!} value={value} onChange={(v) => setValue((v as number[] | null) ?? [])} />
      </div>
    </Box>
  );
}

function RangeFilter({ field, name, filters, setFilters, close, t }: DropdownProps) {
  const from = valueOf(filters, name, 'gte');
  const to = valueOf(filters, name, 'lte');
  const money = field.type === 'MONEY';
  const toUi = (v: unknown) => (v === undefined ? null : money ? Number(v) / 100 : Number(v));
  const [low, setLow] = useState<number | null>(field.type === 'DATE' ? null : toUi(from));
  const [high, setHigh] = useState<number | null>(field.type === 'DATE' ? null : toUi(to));
  const [dates, setDates] = useState<[Dayjs | null, Dayjs | null]>([from ? dayjs(String(from)) : null, to ? dayjs(String(to)) : null]);
  const apply = (clear = false) => {
    if (field.type === 'DATE') {
      setFilters([
        { field: name, operator: 'gte', value: !clear && dates[0] ? dates[0].format('YYYY-MM-DD') : undefined },
        { field: name, operator: 'lte', value: !clear && dates[1] ? dates[1].format('YYYY-MM-DD') : undefined },
      ]);
    } else {
      const wire = (v: number | null) => (clear || v === null ? undefined : money ? Math.round(v * 100) : v);
      setFilters([
        { field: name, operator: 'gte', value: wire(low) },
        { field: name, operator: 'lte', value: wire(high) },
      ]);
    }
    close();
  };
  return (
    <Box onApply={() => apply()} onClear={() => apply(true)}>
      {field.type === 'DATE' ? (
        <DatePicker.RangePicker
          format={DATE_FORMAT}
          allowEmpty={[true, true]}
          presets={DATE_RANGE_PRESETS.map((preset) => ({ label: t(`dateRange.${preset}`), value: presetRange(preset) }))}
          value={dates}
          onChange={(v) => setDates([v?.[0] ?? null, v?.[1] ?? null])}
        />
      ) : (
        <Space>
          <InputNumber placeholder={t('directory.from')} value={low} onChange={setLow} decimalSeparator="," />
          <InputNumber placeholder={t('directory.to')} value={high} onChange={setHigh} decimalSeparator="," />
        </Space>
      )}
    </Box>
  );
}

const DROPDOWNS: Record<Kind, (props: DropdownProps) => ReactNode> = {
  like: LikeFilter,
  in: InFilter,
  ref: RefFilter,
  range: RangeFilter,
};

/** antd column props for a field's filter, driven by `setFilters` (manualFilters tables). */
export function filterColumn<T>(
  field: FieldDef,
  name: string,
  filters: CrudFilters,
  setFilters: (f: CrudFilter[]) => void,
  t: Translate,
): Partial<ColumnType<T>> {
  const kind = filterKind(field);
  if (!kind) return {};
  const Dropdown = DROPDOWNS[kind];
  const active = filters.some((f) => 'field' in f && f.field === name && f.value !== undefined && f.value !== null);
  return {
    filtered: active,
    filterDropdown: ({ close }) => <Dropdown field={field} name={name} filters={filters} setFilters={setFilters} close={close} t={t} />,
  };
}
