import { EyeOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import { Alert, Button, Table, type TabsProps } from 'antd';
import { Link } from 'react-router';
import { can } from '../../domain/permissions';
import type { FieldDef, ResourceDef } from '../../domain/fields';
import { errorText } from '../providers/errors';
import { session } from '../providers/session';
import { FieldDisplay } from './fields/display';
import { footerOf } from './list-table';
import { labelOf, type Translate } from './fields/format';

/** The REFERENCE fields of `declarations` that point at rows of `target`, with their declaration. */
export function referencesTo(target: string, declarations: readonly ResourceDef[]): { def: ResourceDef; field: FieldDef }[] {
  return declarations.flatMap((def) => def.fields.filter((f) => f.type === 'REFERENCE' && f.reference === target).map((field) => ({ def, field })));
}

/**
 * A tab per resource declared at run time whose records point at this row (a student's
 * exams): the records, paged by the server, filtered by the reference.
 */
export function referencingTabs(target: ResourceDef, id: number, declarations: readonly ResourceDef[], t: Translate): NonNullable<TabsProps['items']> {
  const role = session.get()?.role;
  const found = referencesTo(target.name, declarations).filter(({ def }) => role && can(role, def.area, 'list'));
  const perEntity = new Map<string, number>();
  for (const { def } of found) perEntity.set(def.name, (perEntity.get(def.name) ?? 0) + 1);
  return found.map(({ def, field }) => ({
    key: `refs-${def.name}-${field.name}`,
    label: (perEntity.get(def.name) ?? 0) > 1 ? `${t(`${def.name}.title`)} (${labelOf(t, def, field)})` : t(`${def.name}.title`),
    children: <ReferencingList def={def} field={field} id={id} t={t} />,
  }));
}

function ReferencingList({ def, field, id, t }: { def: ResourceDef; field: FieldDef; id: number; t: Translate }) {
  const { result, query } = useList<Record<string, unknown> & { id: number }>({
    resource: def.name,
    filters: [{ field: field.name, operator: 'eq', value: id }],
    sorters: def.defaultSort.map((s) => ({ field: s.field, order: s.order })),
    pagination: { currentPage: 1, pageSize: 50, mode: 'server' },
  });
  if (query.isError) return <Alert type="error" message={errorText(query.error)} />;
  const names = (def.screen.listFields ?? def.fields.map((f) => f.name)).filter((n) => n !== field.name);
  const fields = names.map((n) => def.fields.find((f) => f.name === n)).filter((f): f is FieldDef => Boolean(f));
  const total = result.total ?? 0;
  return (
    <Table
      size="small"
      rowKey="id"
      loading={query.isLoading}
      dataSource={result.data ?? []}
      locale={{ emptyText: t('table.empty') }}
      pagination={total > 50 ? { total, pageSize: 50, showTotal: footerOf(t), showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
      columns={[
        ...fields.map((f) => ({
          key: f.name,
          title: labelOf(t, def, f),
          render: (_: unknown, row: Record<string, unknown>) => <FieldDisplay field={f} row={row} variant="cell" t={t} />,
        })),
        {
          key: 'open',
          title: t('table.actions'),
          render: (_: unknown, row: { id: number }) => (
            <Link to={`${def.screen.route}?mode=view&${def.screen.entity}=${row.id}`}>
              <Button size="small" icon={<EyeOutlined />} title={t('buttons.show')} aria-label={t('buttons.show')} />
            </Link>
          ),
        },
      ]}
    />
  );
}
