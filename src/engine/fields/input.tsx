import { Checkbox, DatePicker, Form, Input, InputNumber, Select, Switch, TimePicker, type FormItemProps } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import type { KeyboardEvent, ReactNode } from 'react';
import { customFieldDef, type CustomFieldDefinition } from '../../../domain/custom-fields';
import type { FieldDef, FieldType, ResourceDef } from '../../../domain/fields';
import { isValidTaxId } from '../../../domain/tax-id';
import { DATE_FORMAT, labelKeyOf, labelOf, type RefLabel } from './format';
import { ColorInput } from './color-input';
import { ReferenceSelect } from './reference-select';
import type { Translate } from '../../providers/i18nProvider';

export interface InputContext {
  t: Translate;
  mode: 'create' | 'update';
  /** The record being edited (for reference labels). */
  record?: Record<string, unknown>;
  customFields?: readonly CustomFieldDefinition[];
}

interface InputSpec {
  control: ReactNode;
  item?: Partial<FormItemProps>;
}

type InputFactory = (field: FieldDef, ctx: InputContext) => InputSpec;

const asDayjs = (value: unknown, format: string): Dayjs | null => {
  if (typeof value !== 'string' || !value) return null;
  const d = dayjs(value, format);
  return d.isValid() ? d : null;
};

/** An empty value passes (required is its own rule); otherwise the ΑΦΜ's check digit must agree. */
async function checkTaxId(value: unknown, message: string): Promise<void> {
  if (typeof value !== 'string' || value.trim() === '' || isValidTaxId(value.trim())) return;
  throw new Error(message);
}

const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** Enter in a date or time picker confirms what was typed; it does not send the whole form too. */
const confirmOnly = (event: KeyboardEvent) => {
  if (event.key === 'Enter') event.preventDefault();
};

const text: InputFactory = (field) => ({ control: <Input maxLength={field.max} /> });
const choices = (field: FieldDef) => (field.options ?? []).map((o) => ({ value: o, label: o }));

/** The input registry: one form control per field type, with how its value maps to the API's. */
const FIELD_INPUT: Record<FieldType, InputFactory> = {
  TEXT: text,
  SLUG: text,
  LONG_TEXT: (field) => ({ control: <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={field.max} /> }),
  USERNAME: () => ({ control: <Input autoComplete="off" /> }),
  PASSWORD: () => ({ control: <Input.Password autoComplete="new-password" /> }),
  EMAIL: (_f, { t }) => ({ control: <Input type="email" />, item: { rules: [{ type: 'email', message: t('forms.email') }] } }),
  PHONE: (_f, { t }) => ({
    control: <Input type="tel" />,
    item: { rules: [{ pattern: /^\+?[0-9 ().-]{5,20}$/, message: t('forms.phone') }] },
  }),
  TAX_ID: (_f, { t }) => ({
    control: <Input inputMode="numeric" maxLength={9} autoComplete="off" />,
    item: { rules: [{ validator: async (_r, value: unknown) => checkTaxId(value, t('forms.taxId')) }] },
  }),
  KEY: (_f, { t }) => ({
    control: <Input autoComplete="off" />,
    item: { rules: [{ pattern: /^[a-z][a-z0-9_]{0,39}$/, message: t('directory.keyFormat') }] },
  }),
  NUMBER: (field) => ({
    control: <InputNumber style={{ width: '100%' }} min={field.min} max={field.max} precision={field.integer ? 0 : undefined} decimalSeparator="," />,
  }),
  MONEY: () => ({
    control: <InputNumber style={{ width: '100%' }} min={0} precision={2} decimalSeparator="," addonAfter="€" />,
    item: {
      // the API speaks integer cents; people type euro
      getValueProps: (value: unknown) => ({ value: typeof value === 'number' ? value / 100 : value }),
      normalize: (value: unknown) => (typeof value === 'number' ? Math.round(value * 100) : (value ?? null)),
    },
  }),
  DATE: () => ({
    control: <DatePicker format={DATE_FORMAT} style={{ width: '100%' }} onKeyDown={confirmOnly} />,
    item: {
      getValueProps: (value: unknown) => ({ value: asDayjs(value, 'YYYY-MM-DD') }),
      normalize: (value: Dayjs | null) => (value ? value.format('YYYY-MM-DD') : null),
    },
  }),
  INSTANT: () => ({
    control: <DatePicker showTime format="DD/MM/YYYY HH:mm" style={{ width: '100%' }} onKeyDown={confirmOnly} />,
    item: {
      getValueProps: (value: unknown) => ({ value: typeof value === 'string' && value ? dayjs(value) : null }),
      normalize: (value: Dayjs | null) => (value ? value.toISOString() : null),
    },
  }),
  TIME: () => ({
    control: <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} onKeyDown={confirmOnly} />,
    item: {
      getValueProps: (value: unknown) => ({ value: asDayjs(value, 'HH:mm') }),
      normalize: (value: Dayjs | null) => (value ? value.format('HH:mm') : null),
    },
  }),
  TIME_ZONE: () => ({ control: <Input /> }),
  // ISO weekdays, Monday first: seven toggles.
  WEEKDAYS: (_f, { t }) => ({
    control: <Checkbox.Group options={ISO_WEEKDAYS.map((d) => ({ value: d, label: t(`weekdays.${d}`) }))} />,
    item: { normalize: (value: unknown) => (Array.isArray(value) ? [...(value as number[])].sort((a, b) => a - b) : []) },
  }),
  DATES: () => ({
    control: <DatePicker multiple format={DATE_FORMAT} style={{ width: '100%' }} maxTagCount="responsive" />,
    item: {
      getValueProps: (value: unknown) => ({
        value: Array.isArray(value) ? value.map((v) => asDayjs(v, 'YYYY-MM-DD')).filter((d): d is Dayjs => d !== null) : [],
      }),
      normalize: (value: Dayjs[] | null) => (value ?? []).map((d) => d.format('YYYY-MM-DD')).sort(),
    },
  }),
  BOOLEAN: () => ({ control: <Switch />, item: { valuePropName: 'checked' } }),
  ENUM: (field, { t }) => ({
    control: <Select options={(field.options ?? []).map((o) => ({ value: o, label: t(`enums.${o}`, { defaultValue: o }) }))} />,
  }),
  SINGLE_CHOICE: (field) => ({ control: <Select allowClear options={choices(field)} /> }),
  MULTIPLE_CHOICE: (field) => ({ control: <Select mode="multiple" allowClear options={choices(field)} /> }),
  OPTIONS: (_f, { t }) => ({
    control: <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',', ';']} placeholder={t('directory.optionsHint')} />,
  }),
  COLOR: (_f, { t }) => ({
    control: <ColorInput />,
    item: { rules: [{ pattern: /^#[0-9a-fA-F]{6}$/, message: t('fields.invalid-format') }] },
  }),
  REFERENCE: (field, { record }) => ({
    control: <ReferenceSelect reference={field.reference!} known={record?.[labelKeyOf(field)] ? [record[labelKeyOf(field)] as RefLabel] : []} />,
  }),
  REFERENCES: (field, { record }) => ({
    control: <ReferenceSelect multiple reference={field.reference!} known={(record?.[labelKeyOf(field)] as RefLabel[] | undefined) ?? []} />,
  }),
  // Rendered by FieldFormItem as one item per definition.
  CUSTOM_VALUES: () => ({ control: null }),
};

interface ItemProps {
  field: FieldDef;
  label: string;
  ctx: InputContext;
  /** Form path; defaults to the field's name. */
  name?: (string | number)[];
  /** Whether the field must be filled (defaults to field.required without a default). */
  required?: boolean;
  extra?: ReactNode;
  hidden?: boolean;
}

/** One form item for a field: its control, label, rules and value mapping from the registry. */
export function FieldFormItem({ field, label, ctx, name, required, extra, hidden }: ItemProps) {
  if (field.type === 'CUSTOM_VALUES') {
    return (
      <>
        {(ctx.customFields ?? []).map((definition) => {
          const def = customFieldDef(definition);
          return (
            <FieldFormItem
              key={def.name}
              field={def}
              label={definition.label}
              ctx={ctx}
              name={[field.name, def.name]}
              required={Boolean(definition.required)}
              hidden={hidden}
            />
          );
        })}
      </>
    );
  }
  const spec = FIELD_INPUT[field.type](field, ctx);
  const mustFill = required ?? (Boolean(field.required) && field.default === undefined);
  const rules: Rule[] = [...(mustFill ? [{ required: true, message: ctx.t('forms.required') }] : []), ...((spec.item?.rules as Rule[] | undefined) ?? [])];
  if (field.min && ['TEXT', 'PASSWORD', 'USERNAME'].includes(field.type)) rules.push({ min: field.min, message: ctx.t('forms.tooShort', { min: field.min }) });
  if (field.type === 'PASSWORD' && !field.min) rules.push({ min: 8, message: ctx.t('forms.tooShort', { min: 8 }) });
  if (field.matches) {
    const other = field.matches;
    rules.push(({ getFieldValue }) => ({
      validator: (_rule, value) => (!value || value === getFieldValue(other) ? Promise.resolve() : Promise.reject(new Error(ctx.t('fields.mismatch')))),
    }));
  }
  return (
    <Form.Item
      {...spec.item}
      name={name ?? field.name}
      label={label}
      rules={rules}
      extra={extra}
      hidden={hidden}
      dependencies={field.matches ? [field.matches] : undefined}
    >
      {spec.control}
    </Form.Item>
  );
}

/** The form items of a declaration's fields `names`, in that order, each labelled as the declaration says. */
export function DeclaredFields({ def, names, ctx }: { def: ResourceDef; names: readonly string[]; ctx: InputContext }) {
  return (
    <>
      {names.map((name) => {
        const field = def.fields.find((f) => f.name === name)!;
        return <FieldFormItem key={name} field={field} label={labelOf(ctx.t, def, field)} ctx={ctx} />;
      })}
    </>
  );
}
