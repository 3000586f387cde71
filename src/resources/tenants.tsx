import { CreateButton, DeleteButton, EditButton, getDefaultFilter, getDefaultSortOrder, List } from '@refinedev/antd';
import type { BaseRecord } from '@refinedev/core';
import { Divider, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ACTIVE_STATES, DEFAULT_LANGUAGE, DEFAULT_TIME_ZONE, LANGUAGES, type ActiveState, type Language } from '../../domain/enums';
import { ListTable } from '../components/list-table';
import { ModeDrawer, useModeParams } from '../components/mode-drawer';
import { FormButtons, useDrawerForm } from '../components/drawer-form';
import { ExportCsvButton, resourceCsvColumns } from '../components/export-csv';
import type { Translate } from '../components/fields/format';
import { TENANTS } from '../../domain/resources/tenants';

export interface TenantRow extends BaseRecord {
  id: number;
  slug: string;
  name: string;
  status: ActiveState;
  time_zone: string;
  language: Language;
  version: number;
}

const MODES = ['create', 'update'] as const;

/** /tenants/ (ROOT only): the centres. `?mode=create` or `?mode=update&tenant=<id>`. */
export default function TenantsPage() {
  const { t } = useTranslation();
  const { mode, id, open, close } = useModeParams('tenant', MODES);

  return (
    <List title={t('tenants.title')} breadcrumb={false} headerButtons={<CreateButton onClick={() => open('create')}>{t('tenants.create')}</CreateButton>}>
      <ListTable<TenantRow>
        resource="tenants"
        toolbar={(state) => (
          <ExportCsvButton
            resource="tenants"
            fileName="tenants"
            columns={resourceCsvColumns(t as Translate, TENANTS)}
            filters={state.filters}
            sorters={state.sorters}
          />
        )}
        initialSort={[{ field: 'name', order: 'asc' }]}
        columns={({ sorters, filters }) => [
          { dataIndex: 'slug', title: t('tenants.fields.slug'), sorter: { multiple: 1 }, defaultSortOrder: getDefaultSortOrder('slug', sorters) },
          { dataIndex: 'name', title: t('tenants.fields.name'), sorter: { multiple: 2 }, defaultSortOrder: getDefaultSortOrder('name', sorters) },
          {
            dataIndex: 'status',
            title: t('tenants.fields.status'),
            filters: ACTIVE_STATES.map((s) => ({ text: t(`activeStates.${s}`), value: s })),
            filteredValue: getDefaultFilter('status', filters, 'in') ?? null,
            render: (status: ActiveState) => <Tag color={status === 'ACTIVE' ? 'green' : 'default'}>{t(`activeStates.${status}`)}</Tag>,
          },
          { dataIndex: 'time_zone', title: t('tenants.fields.time_zone') },
          { dataIndex: 'language', title: t('tenants.fields.language'), render: (l: Language) => t(`languages.${l}`) },
          {
            key: 'actions',
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) => (
              <Space>
                <EditButton size="small" hideText recordItemId={row.id} onClick={() => open('update', row.id)} />
                {row.status === 'ACTIVE' && (
                  <DeleteButton
                    size="small"
                    resource="tenants"
                    recordItemId={row.id}
                    confirmTitle={t('tenants.deactivateConfirm', { name: row.name })}
                    confirmOkText={t('buttons.deactivate')}
                    confirmCancelText={t('buttons.cancel')}
                  >
                    {t('tenants.deactivate')}
                  </DeleteButton>
                )}
              </Space>
            ),
          },
        ]}
      />
      <ModeDrawer open={mode !== null} title={mode === 'update' ? t('tenants.edit') : t('tenants.create')} onClose={close}>
        {mode && <TenantForm key={`${mode}-${id}`} mode={mode} id={id} onDone={close} />}
      </ModeDrawer>
    </List>
  );
}

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [DEFAULT_TIME_ZONE];
  }
}

function TenantForm({ mode, id, onDone }: { mode: (typeof MODES)[number]; id: number | null; onDone(): void }) {
  const { t } = useTranslation();
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);
  const { formProps, saveButtonProps } = useDrawerForm<TenantRow>({ resource: 'tenants', mode, id, onDone });
  const required = { required: true, message: t('forms.required') };

  return (
    <Form
      {...formProps}
      layout="vertical"
      initialValues={mode === 'create' ? { time_zone: DEFAULT_TIME_ZONE, language: DEFAULT_LANGUAGE } : formProps.initialValues}
      onFinish={(values) => {
        const body = { ...(values as Record<string, unknown>) };
        if (mode === 'update') delete body.slug;
        return formProps.onFinish?.(body);
      }}
    >
      <Form.Item name="version" hidden>
        <Input />
      </Form.Item>
      <Form.Item
        name="slug"
        label={t('tenants.fields.slug')}
        rules={[required, { pattern: /^[a-z0-9-]{1,63}$/, message: t('fields.invalid-format') }]}
        extra={mode === 'create' ? 'a-z, 0-9, -' : undefined}
      >
        <Input disabled={mode === 'update'} autoComplete="off" />
      </Form.Item>
      <Form.Item name="name" label={t('tenants.fields.name')} rules={[required]}>
        <Input />
      </Form.Item>
      <Form.Item name="time_zone" label={t('tenants.fields.time_zone')}>
        <Select showSearch options={zones} />
      </Form.Item>
      <Form.Item name="language" label={t('tenants.fields.language')}>
        <Select options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
      </Form.Item>
      {mode === 'update' && (
        <Form.Item name="status" label={t('tenants.fields.status')}>
          <Select options={ACTIVE_STATES.map((s) => ({ value: s, label: t(`activeStates.${s}`) }))} />
        </Form.Item>
      )}
      {mode === 'create' && (
        <>
          <Divider orientation="left" plain>
            <Typography.Text strong>{t('tenants.firstAdmin')}</Typography.Text>
          </Divider>
          <Form.Item name={['admin', 'username']} label={t('users.fields.username')} rules={[required]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name={['admin', 'password']} label={t('users.fields.password')} rules={[required, { min: 8, message: t('forms.tooShort', { min: 8 }) }]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item name={['admin', 'first_name']} label={t('users.fields.first_name')} rules={[required]}>
            <Input />
          </Form.Item>
          <Form.Item name={['admin', 'last_name']} label={t('users.fields.last_name')} rules={[required]}>
            <Input />
          </Form.Item>
        </>
      )}
      <FormButtons onCancel={onDone} saveButtonProps={saveButtonProps} />
    </Form>
  );
}
