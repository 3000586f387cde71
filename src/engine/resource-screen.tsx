import { PlusOutlined } from '@ant-design/icons';
import { CreateButton, EditButton, getDefaultSortOrder, List, ShowButton } from '@refinedev/antd';
import { type CrudFilter, useDelete, useInvalidate, useOne } from '@refinedev/core';
import { Alert, App, Descriptions, Form, Space, Spin, Tabs, type TabsProps } from 'antd';
import type { TableColumnsType } from 'antd';
import { Fragment, useContext, useMemo, type ReactNode } from 'react';
import { customFieldDef, type CustomFieldDefinition } from '../../domain/custom-fields';
import { narrowedDef, readableFields, SYSTEM_FIELDS, type FieldDef, type ResourceDef, type ScreenMode } from '../../domain/fields';
import type { Role } from '../../domain/enums';
import { can } from '../../domain/permissions';
import { session } from '../providers/session';
import { areaOf } from './registry';
import { allows } from './access-control';
import { toProviderError, type ProviderError } from '../providers/dataProvider';
import { errorText } from '../providers/errors';
import type { Row } from './row';
import { DetailTabsContext, declaredTabs } from './view/declared-tabs';

import { ExportCsvButton, resourceCsvColumns, type CsvColumn } from './list/export-csv';
import { FieldDisplay } from './fields/display';
import { fieldText, labelKeyOf, labelOf } from './fields/format';
import { FieldFormItem, type InputContext } from './fields/input';
import { HistoryTab } from './view/history-tab';
import { referencingTabs } from './view/referencing-tabs';
import { useRuntimeResources } from './runtime/runtime';
import { filterColumn } from './list/list-filters';
import { DeleteButton, ListTable, type ListState } from './list/list-table';
import { ModeDrawer, useModeParams } from './mode-drawer';
import { DrawerFormBody, useDrawerForm } from './form/drawer-form';
import { declaredComparison } from './form/stale-fields';
import { ScreenTitle } from '../components/headings';
import { useT, type Translate } from '../providers/i18nProvider';

type Mode = ScreenMode;
export type { Row } from './row';

/**
 * How one screen uses the generic list, drawer form and show view. The declaration's screen
 * (def.screen) says most of it; a page adds what a declaration cannot (components, hooks).
 */
export interface ScreenConfig {
  def: ResourceDef;
  /** The entity search parameter: /subjects/?mode=update&subject=3; the declaration's by default. */
  entity?: string;
  /** The declaration's by default. */
  modes?: readonly Mode[];
  /** i18n key of the title; `<resource>.title` by default. */
  title?: string;
  /** Columns of the list (field names, also created_at/updated_at); the declaration's, else derived. */
  listFields?: readonly string[];
  /** The tenant's custom field definitions (students). */
  customFields?: readonly CustomFieldDefinition[];
  /** Whether a field is shown, given the form's values or the record (status -> inactive_reason). */
  visible?(field: string, values: Record<string, unknown>): boolean;
  /** What a row is called in titles and confirmations; the declaration's title fields by default. */
  rowName?(row: Row): string;
  /** What the detail view adds: content of the Details tab under the fields (a teacher's calendar feed), tabs after the declared ones (History is always last). */
  view?: { extra?(row: Row): ReactNode; tabs?(row: Row): TabsProps['items'] };
  /** Extra buttons beside Export (a function gets the list's sorters and filters). */
  toolbar?: ReactNode | ((state: ListState) => ReactNode);
  /** Filters the list opens with when the address names none. */
  initialFilters?: CrudFilter[];
  /** Columns after the fields' ones (before the actions), given the list's filters: what a filter makes worth showing. */
  moreColumns?(state: ListState): TableColumnsType<Row>;
  /** Cells and titles of columns the field registry does not say well (a time range, a status tag). */
  columns?: Record<string, { title?: string; render?(row: Row): ReactNode }>;
  /** The screen's own drawers instead of the generic form and view (lessons). */
  drawers?: ReactNode;
  /** Per row: may the edit button show (beyond the role's rights, which the access control decides)? */
  canEdit?(row: Row): boolean;
  /** Extra buttons of a row, before edit and delete. */
  rowActions?(row: Row): ReactNode;
  /** False hides the create button (beyond the role's rights). */
  canCreate?: boolean;
  /** Shown above the list (tabs of a settings page). */
  header?: ReactNode;
  /** A row's delete button, where it differs from the plain one. */
  remove?: RemoveConfig;
  /** What the drawer form does beyond the declaration. */
  form?: FormConfig;
}

interface FormConfig {
  /** Fields of the form; the declaration's, else all writable ones. */
  fields?: readonly string[];
  /** Values a new row's form starts with, beside the declaration's defaults (today's date…). */
  defaults?(): Record<string, unknown>;
  /**
   * Changes the body before it is sent (`raw`: every value of the form, also those of no field);
   * it may wait (rows saved first), and null sends nothing (the screen has said why).
   */
  toBody?(
    body: Record<string, unknown>,
    mode: 'create' | 'update',
    raw: Record<string, unknown>,
  ): Record<string, unknown> | null | Promise<Record<string, unknown> | null>;
  /** The screen's own form item for a field (null: none in this mode); undefined keeps the registry's. */
  item?(field: FieldDef, mode: 'create' | 'update', record: Row | undefined): ReactNode | undefined;
  /** Extra content of a form field (under its control). */
  fieldExtra?(field: string, mode: 'create' | 'update'): ReactNode;
  /** Extra content at the bottom of the form (hints). */
  extra?(mode: 'create' | 'update'): ReactNode;
  /** The text of a failed save, when the screen explains it better (in-use). */
  errorText?(error: { code?: string; message: string }): string | undefined;
}

interface RemoveConfig {
  /** Per row: may the delete button show (beyond the role's rights, which the access control decides)? */
  can?(row: Row): boolean;
  /** The confirmation's text; `directory.deleteConfirm` by default. */
  confirm?(row: Row): string;
  /** The toast after a delete; `directory.deleted` by default. */
  done?(row: Row): string;
  /** The button's words when removing a row means something else (deactivating a user). */
  labels?: { button: string; ok: string };
  /** Handles a refused delete (409 in-use); return true when handled. */
  onRefused?(row: Row, error: ProviderError, helpers: ScreenHelpers): boolean;
}

interface ScreenHelpers {
  refresh(): Promise<void>;
  remove(row: Row, query?: Record<string, string>): Promise<void>;
  t: Translate;
}

const systemField = (name: string): FieldDef | undefined => {
  const f = SYSTEM_FIELDS.find((s) => s.name === name);
  return f && { ...f, label: `directory.fields.${name}` };
};

export function fieldOf(def: ResourceDef, name: string): FieldDef | undefined {
  return def.fields.find((f) => f.name === name) ?? systemField(name);
}

/** List columns by default: what a person reads at a glance (no secrets, long texts or objects). */
function defaultListFields(def: ResourceDef): string[] {
  return def.fields.filter((f) => !f.writeOnly && !['LONG_TEXT', 'CUSTOM_VALUES', 'PASSWORD'].includes(f.type)).map((f) => f.name);
}

/** What a row is called: its declared title fields joined by a space (`name` by default). */
export const rowTitle = (def: ResourceDef) => (row: Row) =>
  (def.screen.titleFields ?? ['name'])
    .map((name) => {
      // a reference in the title is named by its label (an exam's student), not by its id
      const field = def.fields.find((f) => f.name === name);
      if (field?.type !== 'REFERENCE') return row[name];
      const label = row[labelKeyOf(field)] as { name?: unknown } | null | undefined;
      return label?.name ?? row[name];
    })
    .filter((v) => v !== null && v !== undefined && v !== '')
    .map(String)
    .join(' ');

const screenDefs = new WeakMap<ResourceDef, Map<Role, ResourceDef>>();

/**
 * The screen as `role` may see it: only the fields it reads (ResourceDef.narrowFor) in the
 * columns, filters, CSV, form and view, no custom fields unless it reads them, and only the
 * detail tabs of resources it reads.
 */
function screenForRole(config: ScreenConfig, role: Role | undefined): ScreenConfig {
  if (!role) return config;
  const readable = readableFields(config.def, role);
  const declared = config.def.screen.tabs;
  const tabs = declared?.filter((tab) => {
    const area = areaOf(tab);
    return !area || can(role, area, 'read');
  });
  if (!readable && tabs?.length === declared?.length) return config;
  const keep = (names?: readonly string[]) => (readable ? names?.filter((n) => readable.has(n)) : names);
  // One declaration per role, so the hooks below see the same object on every render.
  let byRole = screenDefs.get(config.def);
  if (!byRole) screenDefs.set(config.def, (byRole = new Map()));
  let def = byRole.get(role);
  if (!def) {
    const narrowed = narrowedDef(config.def, role);
    def = { ...narrowed, screen: { ...narrowed.screen, tabs, listFields: keep(narrowed.screen.listFields), formFields: keep(narrowed.screen.formFields) } };
    byRole.set(role, def);
  }
  return {
    ...config,
    def,
    listFields: keep(config.listFields),
    form: { ...config.form, fields: keep(config.form?.fields) },
    customFields: readable && !def.fields.some((f) => f.type === 'CUSTOM_VALUES') ? [] : config.customFields,
  };
}

/** A config with the declaration's defaults filled in. */
type Resolved = ScreenConfig & Required<Pick<ScreenConfig, 'entity' | 'modes' | 'rowName'>>;
const resolve = (config: ScreenConfig): Resolved => {
  const screen = config.def.screen;
  return {
    ...config,
    entity: config.entity ?? screen.entity,
    modes: config.modes ?? screen.modes,
    rowName: config.rowName ?? rowTitle(config.def),
    listFields: config.listFields ?? screen.listFields,
    form: { ...config.form, fields: config.form?.fields ?? screen.formFields },
  };
};

/** A row's Refine buttons: the list has already asked the access control for that row. */
const ROW_CHECKED = { enabled: false } as const;

/**
 * The generic screen: list with filters, search, sort and CSV export; drawer form; show view.
 * Which buttons show is the access control's answer, given the row for roles limited to their
 * own rows: asked directly for each row's buttons while the list is drawn.
 */
export function ResourceScreen(props: ScreenConfig) {
  const config = resolve(screenForRole(props, session.get()?.role));
  const { def, entity, modes } = config;
  const { t } = useT();
  const { modal, message } = App.useApp();
  const { mode, id, open, close } = useModeParams(entity, modes);
  const invalidate = useInvalidate();
  const customFields = config.customFields;
  const { mutateAsync: deleteRow } = useDelete();

  const helpers: ScreenHelpers = {
    t,
    refresh: () => invalidate({ resource: def.name, invalidates: ['list', 'many', 'detail'] }),
    remove: async (row, query) => {
      // the screen says what happened itself (a toast, or the in-use dialog below)
      await deleteRow({ resource: def.name, id: row.id, meta: query ? { query } : undefined, successNotification: false, errorNotification: false });
      await helpers.refresh();
      message.success(config.remove?.done?.(row) ?? t('directory.deleted', { name: config.rowName(row) }));
      if (id === row.id) close();
    },
  };

  const remove = async (row: Row) => {
    try {
      await helpers.remove(row);
    } catch (error) {
      const apiError = toProviderError(error);
      if (apiError.code === 'in-use' && config.remove?.onRefused?.(row, apiError, helpers)) return;
      modal.error({
        title: apiError.code === 'in-use' ? t('directory.inUseTitle') : t('directory.deleteFailed'),
        content: apiError.code === 'in-use' ? inUseText(t, apiError) : errorText(apiError),
      });
    }
  };

  const listFields = (config.listFields ?? defaultListFields(def)).map((n) => fieldOf(def, n)).filter((f): f is FieldDef => Boolean(f));
  const customDefs = useMemo(() => (customFields ?? []).map((d) => ({ definition: d, field: customFieldDef(d) })), [customFields]);
  const customIndex = def.fields.find((f) => f.type === 'CUSTOM_VALUES');

  const columns = (state: ListState): TableColumnsType<Row> => {
    const cols: TableColumnsType<Row> = listFields.map((field, i) => ({
      key: field.name,
      dataIndex: field.name,
      title: config.columns?.[field.name]?.title ?? labelOf(t, def, field),
      sorter: field.sortable && !field.writeOnly ? { multiple: i + 1 } : undefined,
      defaultSortOrder: getDefaultSortOrder(field.name, state.sorters),
      ...filterColumn<Row>(field, field.name, state.filters, state.setFilters, t),
      render: (_: unknown, row: Row) => config.columns?.[field.name]?.render?.(row) ?? <FieldDisplay field={field} row={row} variant="cell" t={t} />,
    }));
    if (customIndex) {
      customDefs.forEach(({ definition, field }, i) => {
        const name = `${customIndex.name}.${field.name}`;
        cols.push({
          key: name,
          dataIndex: [customIndex.name, field.name],
          title: definition.label,
          sorter: field.sortable ? { multiple: listFields.length + i + 1 } : undefined,
          defaultSortOrder: getDefaultSortOrder(name, state.sorters),
          ...filterColumn<Row>(field, name, state.filters, state.setFilters, t),
          render: (_: unknown, row: Row) => (
            <FieldDisplay field={field} row={(row[customIndex.name] as Record<string, unknown> | null) ?? {}} variant="cell" t={t} />
          ),
        });
      });
    }
    cols.push(...(config.moreColumns?.(state) ?? []));
    cols.push({
      key: 'actions',
      title: t('table.actions'),
      fixed: 'right',
      render: (_: unknown, row: Row) => (
        <Space size={4}>
          {config.rowActions?.(row)}
          {modes.includes('view') && allows(def.name, 'show', { meta: { record: row } }) && (
            <ShowButton
              accessControl={ROW_CHECKED}
              resource={def.name}
              recordItemId={row.id}
              hideText
              size="small"
              title={t('buttons.show')}
              aria-label={t('buttons.show')}
              onClick={() => open('view', row.id)}
            />
          )}
          {!row.deleted && modes.includes('update') && (config.canEdit?.(row) ?? true) && allows(def.name, 'edit', { meta: { record: row } }) && (
            <EditButton
              accessControl={ROW_CHECKED}
              resource={def.name}
              recordItemId={row.id}
              meta={{ record: row }}
              hideText
              size="small"
              title={t('buttons.edit')}
              aria-label={t('buttons.edit')}
              onClick={() => open('update', row.id)}
            />
          )}
          {!row.deleted && (config.remove?.can?.(row) ?? true) && allows(def.name, 'delete', { meta: { record: row } }) && (
            // Our own delete (not Refine's DeleteButton): a refused delete (409 in-use) is explained or handled by the screen.
            <DeleteButton
              confirm={config.remove?.confirm?.(row) ?? t('directory.deleteConfirm', { name: config.rowName(row) })}
              okText={config.remove?.labels?.ok}
              title={config.remove?.labels?.button ?? t('buttons.delete')}
              onConfirm={() => remove(row)}
            />
          )}
        </Space>
      ),
    });
    return cols;
  };

  const csvColumns: CsvColumn[] = [
    ...resourceCsvColumns(t, def),
    ...(customIndex
      ? customDefs.map(({ definition, field }) => ({
          header: definition.label,
          text: (row: Record<string, unknown>) => fieldText(t, field, (row[customIndex.name] as Record<string, unknown> | null) ?? {}),
        }))
      : []),
  ];

  const title = t(config.title ?? `${def.name}.title`);
  const formOpen = mode === 'create' || (mode === 'update' && id !== null);
  const viewOpen = mode === 'view' && id !== null;

  return (
    <List
      title={
        <ScreenTitle className="refine-pageHead" style={{ marginBottom: 0 }}>
          {title}
        </ScreenTitle>
      }
      breadcrumb={false}
      headerButtons={
        modes.includes('create') && (config.canCreate ?? true) ? (
          <CreateButton resource={def.name} type="primary" icon={<PlusOutlined />} onClick={() => open('create')}>
            {t(`${def.name}.create`)}
          </CreateButton>
        ) : null
      }
    >
      {config.header}
      <ListTable<Row>
        resource={def.name}
        manualFilters
        initialSort={def.defaultSort.map((s) => ({ field: s.field, order: s.order }))}
        initialFilters={config.initialFilters}
        columns={columns}
        toolbar={(state) => (
          <Space wrap>
            {typeof config.toolbar === 'function' ? config.toolbar(state) : config.toolbar}
            <ExportCsvButton resource={def.name} fileName={def.name} columns={csvColumns} filters={state.filters} sorters={state.sorters} />
          </Space>
        )}
      />
      {config.drawers ?? (
        <>
          <ModeDrawer open={formOpen} title={mode === 'update' ? t(`${def.name}.edit`) : t(`${def.name}.create`)} onClose={close}>
            {formOpen && <ResourceForm key={`${mode}-${id}`} config={config} mode={mode as 'create' | 'update'} id={id} onDone={close} />}
          </ModeDrawer>
          <ModeDrawer open={viewOpen} title={t(`${def.name}.view`)} onClose={close}>
            {viewOpen && (
              <ResourceView
                key={id}
                config={config}
                id={id}
                onEdit={(row) => (!row.deleted && modes.includes('update') && (config.canEdit?.(row) ?? true) ? () => open('update', id) : undefined)}
              />
            )}
          </ModeDrawer>
        </>
      )}
    </List>
  );
}

/** "in use", saying in the user's language what uses it (from the error's details). */
export function inUseText(_t: Translate, error: ProviderError): string {
  return errorText(error);
}

function formFieldsOf(config: ScreenConfig, mode: 'create' | 'update'): FieldDef[] {
  const names = config.form?.fields ?? config.def.fields.map((f) => f.name);
  return names.map((n) => fieldOf(config.def, n)).filter((f): f is FieldDef => Boolean(f) && !f!.readOnly && !(mode === 'update' && f!.createOnly));
}

/** Empty text means "no value"; unset custom values are left out of the object. */
function cleanBody(fields: readonly FieldDef[], values: Record<string, unknown>, mode: 'create' | 'update', hidden: (name: string) => boolean) {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    let value = values[field.name];
    if (hidden(field.name)) value = null;
    if (typeof value === 'string' && field.type !== 'PASSWORD') value = value.trim();
    if (value === '' || value === undefined) value = null;
    if (field.type === 'CUSTOM_VALUES') {
      const object: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((value as Record<string, unknown> | null) ?? {})) {
        const clean = typeof v === 'string' ? v.trim() : v;
        if (clean !== null && clean !== undefined && clean !== '' && !(Array.isArray(clean) && clean.length === 0)) object[k] = clean;
      }
      value = object;
    }
    if (mode === 'create' && value === null) continue;
    body[field.name] = value;
  }
  return body;
}

function ResourceForm({ config, mode, id, onDone }: { config: Resolved; mode: 'create' | 'update'; id: number | null; onDone(): void }) {
  const { def } = config;
  const { t } = useT();
  const { formProps, saveButtonProps, query, form, formLoading } = useDrawerForm<Row>({
    resource: def.name,
    mode,
    id,
    onDone,
    labelOf: (name) => {
      const field = fieldOf(def, name);
      return field ? labelOf(t, def, field) : name;
    },
    compare: declaredComparison(t, def, config.customFields),
    options: {
      // a stale save is told by its dialog alone (drawer-form.tsx), not by a toast saying it again
      errorNotification: (error) =>
        error && (error as { code?: string }).code === 'stale'
          ? false
          : {
              type: 'error',
              message: t('directory.saveFailed'),
              description: (error && config.form?.errorText?.(error as { code?: string; message: string })) ?? error?.message,
            },
    },
  });
  const values = (Form.useWatch([], form) as Record<string, unknown> | undefined) ?? {};
  const record = query?.data?.data;
  const fields = formFieldsOf(config, mode);
  const isHidden = (name: string) => config.visible !== undefined && !config.visible(name, { ...(record ?? {}), ...values });
  const ctx: InputContext = { t, mode, record, customFields: config.customFields };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a form's first values are taken once, when it opens
  const defaults = useMemo(
    () => ({ ...Object.fromEntries(def.fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default])), ...config.form?.defaults?.() }),
    [def],
  );

  if (mode === 'update' && query?.isError) return <Alert type="error" message={errorText(query.error)} />;
  return (
    <Spin spinning={formLoading}>
      <DrawerFormBody
        formProps={formProps}
        saveButtonProps={saveButtonProps}
        onCancel={onDone}
        initialValues={mode === 'create' ? defaults : formProps.initialValues}
        onFinish={async (raw) => {
          let body: Record<string, unknown> | null = cleanBody(fields, raw, mode, isHidden);
          if (mode === 'update') body.version = raw.version ?? record?.version;
          if (config.form?.toBody) body = await config.form.toBody(body, mode, raw);
          if (body) return formProps.onFinish?.(body);
        }}
      >
        {fields.map((field) => {
          const own = config.form?.item?.(field, mode, record);
          if (own !== undefined) return <Fragment key={field.name}>{own}</Fragment>;
          return (
            <FieldFormItem
              key={field.name}
              field={field}
              label={labelOf(t, def, field)}
              ctx={ctx}
              hidden={isHidden(field.name)}
              required={isHidden(field.name) ? false : undefined}
              extra={config.form?.fieldExtra?.(field.name, mode)}
            />
          );
        })}
        {config.form?.extra?.(mode)}
      </DrawerFormBody>
    </Spin>
  );
}

/** The detail view: Details (every readable field through the display registry) and History. */
function ResourceView({ config, id, onEdit }: { config: Resolved; id: number; onEdit(row: Row): (() => void) | undefined }) {
  const { def } = config;
  const { t } = useT();
  const { result: row, query } = useOne<Row>({ resource: def.name, id });
  const { declarations } = useRuntimeResources();
  const knownTabs = useContext(DetailTabsContext);
  if (query.isLoading) return <Spin />;
  if (query.isError || !row) return <Alert type="error" message={errorText(query.error)} />;

  const hidden = (name: string) => config.visible !== undefined && !config.visible(name, row);
  const customIndex = def.fields.find((f) => f.type === 'CUSTOM_VALUES');
  const shown = def.fields.filter((f) => !f.writeOnly && f.type !== 'CUSTOM_VALUES' && !hidden(f.name));
  const custom = (config.customFields ?? []).map((d) => ({ label: d.label, field: customFieldDef(d) }));
  const edit = onEdit(row);

  const details = (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Descriptions column={1} size="small" bordered>
        {shown.map((field) => (
          <Descriptions.Item key={field.name} label={labelOf(t, def, field)}>
            <FieldDisplay field={field} row={row} variant="show" t={t} />
          </Descriptions.Item>
        ))}
        {customIndex &&
          custom.map(({ label, field }) => (
            <Descriptions.Item key={`custom-${field.name}`} label={label}>
              <FieldDisplay field={field} row={(row[customIndex.name] as Record<string, unknown> | null) ?? {}} variant="show" t={t} />
            </Descriptions.Item>
          ))}
        {/* the instants a role receives (one that reads only some fields receives none) */}
        {(['created_at', 'updated_at'] as const)
          .filter((name) => name in row)
          .map((name) => (
            <Descriptions.Item key={name} label={t(`directory.fields.${name}`)}>
              <FieldDisplay field={systemField(name)!} row={row} variant="show" t={t} />
            </Descriptions.Item>
          ))}
      </Descriptions>
      {edit && (
        <EditButton resource={def.name} recordItemId={row.id} meta={{ record: row }} onClick={edit}>
          {t('buttons.edit')}
        </EditButton>
      )}
      {config.view?.extra?.(row)}
    </Space>
  );

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <h3 style={{ margin: 0 }}>{config.rowName(row)}</h3>
      <Tabs
        items={[
          { key: 'details', label: t('directory.tabs.details'), children: details },
          ...declaredTabs(def, row.id, t, knownTabs),
          ...referencingTabs(def, row.id, declarations, t),
          ...(config.view?.tabs?.(row) ?? []),
          { key: 'history', label: t('directory.tabs.history'), children: <HistoryTab def={def} id={id} customFields={config.customFields} /> },
        ]}
      />
    </Space>
  );
}
