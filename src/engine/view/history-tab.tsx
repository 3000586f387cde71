import { useList, useMany } from '@refinedev/core';
import { Alert, Empty, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import type { CustomFieldDefinition } from '../../../domain/custom-fields';
import { customFieldDef } from '../../../domain/custom-fields';
import { recordsHistoryEntity } from '../../../domain/custom-entities';
import type { FieldDef, ResourceDef } from '../../../domain/fields';
import { errorText } from '../../providers/errors';
import { formatInstant, labelOf, refName, valueText, type RefLabel } from '../fields/format';
import { rowLabel } from '../fields/reference-select';
import { useT, type Translate } from '../../providers/i18nProvider';

export interface HistoryEntry {
  id: number;
  action: 'create' | 'update' | 'delete';
  /** `labels` name the records a REFERENCE or REFERENCES change points to, on each side. */
  changes: Record<string, { old: unknown; new: unknown; labels?: { old: unknown; new: unknown } }>;
  user_name: string | null;
  user: { id: number; name: string; root: boolean } | null;
  at: string;
}

/** Rows of another resource, named once their names arrive (the history keeps only their ids). */
interface ReferencedRows {
  reference: string;
  ids: number[];
}

/** A value as the History tab shows it: text, or rows of another resource to name. */
export type Shown = string | ReferencedRows;

interface Change {
  key: string;
  label: string;
  old: Shown;
  new: Shown;
}

const empty = '—';

const isLabel = (value: unknown): value is RefLabel => typeof value === 'object' && value !== null && 'id' in value && 'name' in value;

/** A reference's value: names when the server sent labels, otherwise the ids to look up. */
function referenceValue(t: Translate, field: FieldDef, value: unknown): Shown {
  const items = Array.isArray(value) ? value : [value];
  if (items.every(isLabel)) return items.map((label) => refName(t, label, field.reference)).join(', ') || empty;
  const ids = items.map((item) => (isLabel(item) ? item.id : Number(item))).filter((id) => Number.isInteger(id) && id > 0);
  return ids.length && field.reference ? { reference: field.reference, ids } : empty;
}

const isBlank = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** One field's change, or one per custom value when the field is the custom-values object. */
export function describeChanges(
  t: Translate,
  def: ResourceDef,
  changes: HistoryEntry['changes'],
  customFields: readonly CustomFieldDefinition[] = [],
): Change[] {
  const fields = new Map<string, FieldDef>(def.fields.map((f) => [f.name, f]));
  const text = (field: FieldDef | undefined, value: unknown) =>
    isBlank(value) ? empty : field ? valueText(t, field, value) || empty : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const shown = (field: FieldDef | undefined, value: unknown): Shown =>
    !isBlank(value) && (field?.type === 'REFERENCE' || field?.type === 'REFERENCES') ? referenceValue(t, field, value) : text(field, value);
  const out: Change[] = [];
  for (const [name, change] of Object.entries(changes ?? {})) {
    const field = fields.get(name);
    if (field?.type === 'CUSTOM_VALUES') {
      const before = (change.old ?? {}) as Record<string, unknown>;
      const after = (change.new ?? {}) as Record<string, unknown>;
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
        const definition = customFields.find((d) => d.key === key);
        const custom = definition ? customFieldDef(definition) : undefined;
        const was = text(custom, before[key]);
        const is = text(custom, after[key]);
        if (was !== is) out.push({ key: `${name}.${key}`, label: definition?.label ?? key, old: was, new: is });
      }
      continue;
    }
    // Labels sent with the change come first; ids without them are looked up (ReferenceNames).
    const before = shown(field, change.labels?.old ?? change.old);
    const after = shown(field, change.labels?.new ?? change.new);
    if (JSON.stringify(before) === JSON.stringify(after)) continue; // null -> [] says nothing to a reader
    out.push({ key: name, label: field ? labelOf(t, def, field) : t(`${def.name}.fields.${name}`, { defaultValue: name }), old: before, new: after });
  }
  return out;
}

/** Every id of each referenced resource in the changes, so each resource is asked for once. */
function idsByReference(changes: Change[]): Map<string, number[]> {
  const ids = new Map<string, Set<number>>();
  for (const change of changes)
    for (const value of [change.old, change.new])
      if (typeof value !== 'string') for (const id of value.ids) ids.set(value.reference, (ids.get(value.reference) ?? new Set()).add(id));
  return new Map([...ids].map(([reference, set]) => [reference, [...set].sort((a, b) => a - b)]));
}

/** Names of referenced rows; cells of one resource share one request (same ids, same query). */
function ReferenceNames({ value, all }: { value: ReferencedRows; all: number[] }) {
  const { t } = useT();
  const { result, query } = useMany<Record<string, unknown> & { id: number }>({
    resource: value.reference,
    ids: all,
    errorNotification: false,
    queryOptions: { staleTime: 60_000 },
  });
  if (query.isLoading) return <Spin size="small" />;
  const rows = new Map((result.data ?? []).map((row) => [Number(row.id), row]));
  return value.ids
    .map((id) => {
      const row = rows.get(id);
      return row ? rowLabel(value.reference, row) : t(value.reference === 'teachers' ? 'directory.deletedTeacher' : 'directory.deletedRow');
    })
    .join(', ');
}

function ShownValue({ value, ids, old }: { value: Shown; ids: Map<string, number[]>; old?: boolean }) {
  const content = typeof value === 'string' ? value : <ReferenceNames value={value} all={ids.get(value.reference) ?? value.ids} />;
  if (!old) return content;
  return (
    <Typography.Text delete={value !== empty} type="secondary">
      {content}
    </Typography.Text>
  );
}

const ACTION_COLOR = { create: 'green', update: 'blue', delete: 'red' } as const;

/** How the history names a resource's rows: a custom entity's records as `custom:<slug>`. */
export function historyEntity(def: Pick<ResourceDef, 'name'>): string {
  const slug = /^custom-entities\/([a-z][a-z0-9-]*)\/records$/.exec(def.name)?.[1];
  return slug ? recordsHistoryEntity(slug) : def.name;
}

/** The History tab of a detail view: who changed what and when, field by field, newest first. */
export function HistoryTab({ def, id, customFields }: { def: ResourceDef; id: number; customFields?: readonly CustomFieldDefinition[] }) {
  const { t } = useT();
  const { result, query } = useList<HistoryEntry>({
    resource: 'history',
    filters: [
      { field: 'entity', operator: 'eq', value: historyEntity(def) },
      { field: 'entity_id', operator: 'eq', value: id },
    ],
    pagination: { currentPage: 1, pageSize: 200, mode: 'server' },
    queryOptions: { staleTime: 0 },
  });
  if (query.isLoading) return <Spin />;
  if (query.isError) return <Alert type="error" message={errorText(query.error)} />;
  if (!result.data.length) return <Empty description={t('history.empty')} />;

  const described = result.data.map((entry) => ({ entry, changes: describeChanges(t, def, entry.changes, customFields) }));
  const ids = idsByReference(described.flatMap((d) => d.changes));
  return (
    <Timeline
      items={described.map(({ entry, changes }) => {
        // No user: the centre's own jobs and set-up, named in the reader's language.
        const who = entry.user ? entry.user_name || (entry.user.root ? t('roles.ROOT') : t('history.system')) : t('history.system');
        return {
          key: entry.id,
          color: ACTION_COLOR[entry.action] ?? 'gray',
          children: (
            <Space direction="vertical" size={4} style={{ width: '100%' }} data-testid="history-entry">
              <Space wrap size={6}>
                <Tag color={ACTION_COLOR[entry.action]}>{t(`history.actions.${entry.action}`)}</Tag>
                <Typography.Text strong>{who}</Typography.Text>
                <Typography.Text type="secondary">{formatInstant(entry.at)}</Typography.Text>
              </Space>
              {changes.length > 0 && (
                <Table<Change>
                  size="small"
                  tableLayout="fixed"
                  pagination={false}
                  rowKey="key"
                  dataSource={changes}
                  columns={[
                    { dataIndex: 'label', title: t('history.field'), width: '28%' },
                    { dataIndex: 'old', title: t('history.old'), width: '34%', render: (v: Shown) => <ShownValue value={v} ids={ids} old /> },
                    { key: 'arrow', render: () => '→', width: 32 },
                    { dataIndex: 'new', title: t('history.new'), render: (v: Shown) => <ShownValue value={v} ids={ids} /> },
                  ]}
                />
              )}
            </Space>
          ),
        };
      })}
    />
  );
}
