import { CreateButton, DeleteButton, EditButton, getDefaultFilter, getDefaultSortOrder, List } from '@refinedev/antd';
import { useGetIdentity, type BaseRecord } from '@refinedev/core';
import { Form, Input, Select, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACTIVE_STATES, type ActiveState, type Role } from '../../domain/enums';
import { MANAGEABLE_ROLES_BY } from '../../domain/permissions';
import { ListTable } from '../components/list-table';
import { ModeDrawer, useModeParams } from '../components/mode-drawer';
import { FormButtons, useDrawerForm } from '../components/drawer-form';
import { PersonFields } from '../components/person-fields';
import { ExportCsvButton, resourceCsvColumns } from '../components/export-csv';
import type { Translate } from '../components/fields/format';
import { USERS } from '../../domain/resources/users';
import type { SessionUser } from '../providers/session';

export interface UserRow extends BaseRecord {
  id: number;
  username: string;
  role: Role;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  status: ActiveState;
  version: number;
}

const MODES = ['create', 'update'] as const;

// A ROOT account lives outside the tenant's users (its id may equal a user's id).
const isOwn = (row: UserRow, me?: SessionUser | null) => me != null && me.role !== 'ROOT' && String(row.id) === String(me.id);

/** /settings/: Users/Admins (ROOT, ADMIN). `?mode=create` or `?mode=update&user=<id>`. */
export default function UsersPage() {
  const { t } = useTranslation();
  const { mode, id, open, close } = useModeParams('user', MODES);
  const { data: me } = useGetIdentity<SessionUser>();

  return (
    <List title={t('users.title')} breadcrumb={false} headerButtons={<CreateButton onClick={() => open('create')}>{t('users.create')}</CreateButton>}>
      <ListTable<UserRow>
        resource="users"
        toolbar={(state) => (
          <ExportCsvButton
            resource="users"
            fileName="users"
            columns={resourceCsvColumns(t as Translate, USERS)}
            filters={state.filters}
            sorters={state.sorters}
          />
        )}
        initialSort={[
          { field: 'last_name', order: 'asc' },
          { field: 'first_name', order: 'asc' },
        ]}
        columns={({ sorters, filters }) => [
          { dataIndex: 'username', title: t('users.fields.username'), sorter: { multiple: 1 }, defaultSortOrder: getDefaultSortOrder('username', sorters) },
          {
            dataIndex: 'last_name',
            title: t('users.fields.name'),
            sorter: { multiple: 2 },
            defaultSortOrder: getDefaultSortOrder('last_name', sorters),
            render: (_, row) => `${row.last_name} ${row.first_name}`,
          },
          {
            dataIndex: 'role',
            title: t('users.fields.role'),
            sorter: { multiple: 3 },
            defaultSortOrder: getDefaultSortOrder('role', sorters),
            filters: (['ADMIN', 'SECRETARY', 'TEACHER'] as const).map((r) => ({ text: t(`roles.${r}`), value: r })),
            filteredValue: getDefaultFilter('role', filters, 'in') ?? null,
            render: (role: Role) => t(`roles.${role}`),
          },
          { dataIndex: 'email', title: t('users.fields.email'), sorter: { multiple: 4 }, defaultSortOrder: getDefaultSortOrder('email', sorters) },
          { dataIndex: 'phone', title: t('users.fields.phone') },
          {
            dataIndex: 'status',
            title: t('users.fields.status'),
            filters: ACTIVE_STATES.map((s) => ({ text: t(`activeStates.${s}`), value: s })),
            filteredValue: getDefaultFilter('status', filters, 'in') ?? null,
            render: (status: ActiveState) => <Tag color={status === 'ACTIVE' ? 'green' : 'default'}>{t(`activeStates.${status}`)}</Tag>,
          },
          {
            key: 'actions',
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) => (
              <Space>
                <EditButton size="small" hideText recordItemId={row.id} onClick={() => open('update', row.id)} />
                {row.status === 'ACTIVE' && !isOwn(row, me) && (
                  <DeleteButton
                    size="small"
                    recordItemId={row.id}
                    resource="users"
                    confirmTitle={t('users.deactivateConfirm', { name: `${row.first_name} ${row.last_name}` })}
                    confirmOkText={t('buttons.deactivate')}
                    confirmCancelText={t('buttons.cancel')}
                    successNotification={{ type: 'success', message: t('users.deactivated') }}
                  >
                    {t('users.deactivate')}
                  </DeleteButton>
                )}
              </Space>
            ),
          },
        ]}
      />
      <ModeDrawer open={mode !== null} title={mode === 'update' ? t('users.edit') : t('users.create')} onClose={close}>
        {mode && <UserForm key={`${mode}-${id}`} mode={mode} id={id} me={me} onDone={close} />}
      </ModeDrawer>
    </List>
  );
}

function UserForm({ mode, id, me, onDone }: { mode: (typeof MODES)[number]; id: number | null; me?: SessionUser | null; onDone(): void }) {
  const { t } = useTranslation();
  const { formProps, saveButtonProps, query } = useDrawerForm<UserRow>({ resource: 'users', mode, id, onDone });
  const manageable = MANAGEABLE_ROLES_BY[me?.role ?? 'TEACHER'];
  const current = query?.data?.data;
  const own = mode === 'update' && current !== undefined && isOwn(current, me);
  const roleOptions = [...new Set([...manageable, ...(current?.role ? [current.role] : [])])].map((r) => ({
    value: r,
    label: t(`roles.${r}`),
    disabled: !manageable.includes(r),
  }));

  return (
    <Form
      {...formProps}
      layout="vertical"
      initialValues={mode === 'create' ? { role: manageable[0] ?? 'SECRETARY' } : formProps.initialValues}
      onFinish={(values) => {
        const body = { ...(values as Record<string, unknown>) };
        if (mode === 'update' && !body.password) delete body.password;
        for (const key of ['email', 'phone']) if (body[key] === '') body[key] = null;
        return formProps.onFinish?.(body);
      }}
    >
      <Form.Item name="version" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="username" label={t('users.fields.username')} rules={[{ required: true, message: t('forms.required') }]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('users.fields.password')}
        extra={mode === 'update' ? t('users.passwordHint') : undefined}
        rules={[
          { required: mode === 'create', message: t('forms.required') },
          { min: 8, message: t('forms.tooShort', { min: 8 }) },
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="role" label={t('users.fields.role')} rules={[{ required: true, message: t('forms.required') }]}>
        <Select options={roleOptions} disabled={Boolean(own) || (mode === 'update' && current !== undefined && !manageable.includes(current.role))} />
      </Form.Item>
      <PersonFields />
      {mode === 'update' && (
        <Form.Item name="status" label={t('users.fields.status')}>
          <Select disabled={Boolean(own)} options={ACTIVE_STATES.map((s) => ({ value: s, label: t(`activeStates.${s}`) }))} />
        </Form.Item>
      )}
      <FormButtons onCancel={onDone} saveButtonProps={saveButtonProps} />
    </Form>
  );
}
