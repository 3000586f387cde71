import { useList } from '@refinedev/core';
import { Alert, Empty, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition } from '../../domain/custom-fields';
import { customFieldDef } from '../../domain/custom-fields';
import type { FieldDef, ResourceDef } from '../../domain/fields';
import { errorText } from '../providers/errors';
import { formatInstant, labelOf, valueText, type Translate } from './fields/format';

export interface HistoryEntry {
  id: number;
  action: 'create' | 'update' | 'delete';
  changes: Record<string, { old: unknown; new: unknown }>;
  user_name: string | null;
  user: { id: number; name: string; root: boolean } | null;
  at: string;
}

interface Change {
  key: string;
  label: string;
  old: string;
  new: string;
}

const empty = '—';

/** One field's change, or one per custom value when the field is the custom-values object. */
export function describeChanges(
  t: Translate,
  def: ResourceDef,
  changes: HistoryEntry['changes'],
  customFields: readonly CustomFieldDefinition[] = [],
): Change[] {
  const fields = new Map<string, FieldDef>(def.fields.map((f) => [f.name, f]));
  const text = (field: FieldDef | undefined, value: unknown) =>
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
      ? empty
      : field
        ? valueText(t, field, value) || empty
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
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
    const before = text(field, change.old);
    const after = text(field, change.new);
    if (before === after) continue; // null -> [] says nothing to a reader
    out.push({ key: name, label: field ? labelOf(t, def, field) : t(`${def.name}.fields.${name}`, { defaultValue: name }), old: before, new: after });
  }
  return out;
}

const ACTION_COLOR = { create: 'green', update: 'blue', delete: 'red' } as const;

/** The History tab of a detail view: who changed what and when, field by field, newest first. */
export function HistoryTab({ def, id, customFields }: { def: ResourceDef; id: number; customFields?: readonly CustomFieldDefinition[] }) {
  const { t } = useTranslation();
  const { result, query } = useList<HistoryEntry>({
    resource: 'history',
    filters: [
      { field: 'entity', operator: 'eq', value: def.name },
      { field: 'entity_id', operator: 'eq', value: id },
    ],
    pagination: { currentPage: 1, pageSize: 200, mode: 'server' },
    queryOptions: { staleTime: 0 },
  });
  if (query.isLoading) return <Spin />;
  if (query.isError) return <Alert type="error" message={errorText(query.error)} />;
  if (!result.data.length) return <Empty description={t('history.empty')} />;

  return (
    <Timeline
      items={result.data.map((entry) => {
        const changes = describeChanges(t as Translate, def, entry.changes, customFields);
        const who = entry.user_name || (entry.user?.root ? t('roles.ROOT') : t('history.system'));
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
                  pagination={false}
                  rowKey="key"
                  dataSource={changes}
                  columns={[
                    { dataIndex: 'label', title: t('history.field') },
                    {
                      dataIndex: 'old',
                      title: t('history.old'),
                      render: (v: string) => (
                        <Typography.Text delete={v !== empty} type="secondary">
                          {v}
                        </Typography.Text>
                      ),
                    },
                    { key: 'arrow', render: () => '→', width: 24 },
                    { dataIndex: 'new', title: t('history.new') },
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
