import { Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { canOpenRoute } from '../../../domain/permissions';
import { VIEW_ROUTES } from '../../../domain/resources/index';
import { runtimeRouteGuards, runtimeViewRoute } from '../registry';
import type { FieldDef, FieldType } from '../../../domain/fields';
import { customFieldDef, type CustomFieldDefinition } from '../../../domain/custom-fields';
import { session } from '../../providers/session';
import { fieldText, labelKeyOf, refName, valueText, type RefLabel } from './format';
import { useT, type Translate } from '../../providers/i18nProvider';

function viewLink(reference: string | undefined, id: number): string | null {
  // where a referenced row is shown: the view drawer its declaration names
  const route = reference ? (VIEW_ROUTES[reference] ?? runtimeViewRoute(reference)) : undefined;
  const role = session.get()?.role;
  if (!route || !role || !canOpenRoute(role, route.path, runtimeRouteGuards())) return null;
  return `${route.path}?mode=view&${route.param}=${id}`;
}

interface DisplayProps {
  field: FieldDef;
  row: Record<string, unknown>;
  /** 'cell' keeps long values short; 'show' is the detail view. */
  variant: 'cell' | 'show';
  t: Translate;
  /** The tenant's custom field definitions, for CUSTOM_VALUES. */
  customFields?: readonly CustomFieldDefinition[];
}

type Display = (props: DisplayProps) => ReactNode;

const plain: Display = ({ field, row, t }) => fieldText(t, field, row) || null;

function RefTag({ label, reference, t }: { label: RefLabel; reference?: string; t: Translate }) {
  const name = refName(t, label, reference);
  if (label.deleted) return <Typography.Text type="secondary">{name}</Typography.Text>;
  const to = viewLink(reference, label.id);
  return to ? <Link to={to}>{name}</Link> : name;
}

/** The display registry: one renderer per field type. */
const FIELD_DISPLAY: Record<FieldType, Display> = {
  TEXT: plain,
  TAX_ID: plain,
  USERNAME: plain,
  KEY: ({ row, field }) => (row[field.name] ? <Typography.Text code>{String(row[field.name])}</Typography.Text> : null),
  SLUG: plain,
  TIME_ZONE: plain,
  TIME: plain,
  NUMBER: plain,
  MONEY: ({ field, row, t }) => <span style={{ whiteSpace: 'nowrap' }}>{fieldText(t, field, row)}</span>,
  DATE: plain,
  INSTANT: plain,
  WEEKDAYS: plain,
  DATES: plain,
  PASSWORD: () => null,
  LONG_TEXT: ({ field, row, variant }) => {
    const value = row[field.name];
    if (!value) return null;
    return variant === 'cell' ? (
      <Typography.Text ellipsis={{ tooltip: String(value) }} style={{ maxWidth: 240 }}>
        {String(value)}
      </Typography.Text>
    ) : (
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{String(value)}</Typography.Paragraph>
    );
  },
  EMAIL: ({ field, row }) => (row[field.name] ? <a href={`mailto:${String(row[field.name])}`}>{String(row[field.name])}</a> : null),
  PHONE: ({ field, row }) =>
    row[field.name] ? (
      <a href={`tel:${String(row[field.name]).replace(/[^\d+]/g, '')}`} style={{ whiteSpace: 'nowrap' }}>
        {String(row[field.name])}
      </a>
    ) : null,
  BOOLEAN: ({ field, row, t }) => {
    const value = row[field.name];
    if (value === null || value === undefined) return null;
    return <Tag color={value ? 'green' : 'default'}>{value ? t('buttons.yes') : t('buttons.no')}</Tag>;
  },
  ENUM: ({ field, row, t }) => {
    const value = row[field.name];
    if (value === null || value === undefined) return null;
    const color = value === 'ACTIVE' ? 'green' : value === 'INACTIVE' ? 'default' : 'blue';
    return <Tag color={color}>{valueText(t, field, value)}</Tag>;
  },
  SINGLE_CHOICE: plain,
  MULTIPLE_CHOICE: ({ field, row }) => {
    const value = row[field.name];
    return Array.isArray(value) && value.length ? (
      <Space size={[4, 4]} wrap>
        {value.map((v) => (
          <Tag key={String(v)}>{String(v)}</Tag>
        ))}
      </Space>
    ) : null;
  },
  OPTIONS: ({ field, row }) => FIELD_DISPLAY.MULTIPLE_CHOICE({ field, row } as DisplayProps),
  COLOR: ({ field, row }) => {
    const value = row[field.name];
    if (typeof value !== 'string' || !value) return null;
    return (
      <Space size={6}>
        <span
          aria-hidden
          style={{
            display: 'inline-block',
            width: 14,
            height: 14,
            borderRadius: 3,
            background: value,
            border: '1px solid rgba(0,0,0,0.15)',
            verticalAlign: 'middle',
          }}
        />
        <Typography.Text type="secondary">{value}</Typography.Text>
      </Space>
    );
  },
  REFERENCE: ({ field, row, t }) => {
    const id = row[field.name];
    if (id === null || id === undefined) {
      // a label without a row (notes: a ROOT author, {id: null, name: "Root"})
      const label = row[labelKeyOf(field)] as RefLabel | null | undefined;
      return label?.name ?? null;
    }
    const label = (row[labelKeyOf(field)] as RefLabel | null | undefined) ?? { id: Number(id), name: null };
    return <RefTag label={label} reference={field.reference} t={t} />;
  },
  REFERENCES: ({ field, row, t }) => {
    const labels = (row[labelKeyOf(field)] as RefLabel[] | undefined) ?? ((row[field.name] as number[] | undefined) ?? []).map((id) => ({ id, name: null }));
    if (!labels.length) return null;
    return (
      <Space size={[4, 4]} wrap>
        {labels.map((label) => (
          <Tag key={label.id}>
            <RefTag label={label} reference={field.reference} t={t} />
          </Tag>
        ))}
      </Space>
    );
  },
  CUSTOM_VALUES: ({ field, row, t, customFields, variant }) => {
    const values = (row[field.name] as Record<string, unknown> | null | undefined) ?? {};
    if (!customFields?.length) return null;
    return (
      <Space direction="vertical" size={2}>
        {customFields.map((definition) => {
          const def = customFieldDef(definition);
          return (
            <span key={def.name}>
              <Typography.Text type="secondary">{definition.label}: </Typography.Text>
              <FieldDisplay field={def} row={values} variant={variant} t={t} />
            </span>
          );
        })}
      </Space>
    );
  },
};

/** Renders one field of a row through the registry. */
export function FieldDisplay(props: Omit<DisplayProps, 't'> & { t?: Translate }) {
  // A list passes its own `t`: a cell then subscribes to nothing (16 rows x 11 columns of
  // i18next subscriptions were a good part of a list's first render).
  return props.t ? FIELD_DISPLAY[props.field.type]({ ...props, t: props.t }) : <TranslatedDisplay {...props} />;
}

function TranslatedDisplay(props: Omit<DisplayProps, 't'>) {
  const { t } = useT();
  return <>{FIELD_DISPLAY[props.field.type]({ ...props, t: t })}</>;
}
