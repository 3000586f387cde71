import { EyeOutlined } from '@ant-design/icons';
import { Button, type TabsProps } from 'antd';
import { Link } from 'react-router';
import { can } from '../../../domain/permissions';
import type { FieldDef, ResourceDef } from '../../../domain/fields';
import { session } from '../../providers/session';
import { FieldDisplay } from '../fields/display';
import { labelOf } from '../fields/format';
import type { Row } from '../row';
import { RelatedRows } from './related-rows';
import type { Translate } from '../../providers/i18nProvider';

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

/** Rows a tab shows at a time (the pager offers other sizes). */
const PAGE = 50;

/** The records pointing at one row, each with a button that opens it. */
function ReferencingList({ def, field, id, t }: { def: ResourceDef; field: FieldDef; id: number; t: Translate }) {
  const names = (def.screen.listFields ?? def.fields.map((f) => f.name)).filter((n) => n !== field.name);
  const fields = names.map((n) => def.fields.find((f) => f.name === n)).filter((f): f is FieldDef => Boolean(f));
  return (
    <RelatedRows<Row>
      resource={def.name}
      pageSize={PAGE}
      filters={[{ field: field.name, operator: 'eq', value: id }]}
      sort={def.defaultSort.map((s) => ({ field: s.field, order: s.order }))}
      columns={[
        ...fields.map((f) => ({
          key: f.name,
          dataIndex: f.name,
          title: labelOf(t, def, f),
          sorter: Boolean(f.sortable && !f.writeOnly),
          render: (_: unknown, row: Row) => <FieldDisplay field={f} row={row} variant="cell" t={t} />,
        })),
        {
          key: 'open',
          title: t('table.actions'),
          render: (_: unknown, row: Row) => (
            <Link to={`${def.screen.route}?mode=view&${def.screen.entity}=${row.id}`}>
              <Button size="small" icon={<EyeOutlined />} title={t('buttons.show')} aria-label={t('buttons.show')} />
            </Link>
          ),
        },
      ]}
    />
  );
}
