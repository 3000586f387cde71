import { useGetIdentity } from '@refinedev/core';
import { Form, Select } from 'antd';
import type { FieldDef } from '../../domain/fields';
import { MANAGEABLE_ROLES_BY } from '../../domain/permissions';
import { USERS } from '../../domain/resources/users';
import type { Role } from '../../domain/enums';
import { FieldFormItem } from '../engine/fields/input';
import { ResourceScreen, type Row } from '../engine/resource-screen';
import type { SessionUser } from '../providers/session';
import { CentreExportButton } from './centre-export';
import { useT } from '../providers/i18nProvider';

// A ROOT account lives outside the tenant's users (its id may equal a user's id).
const isOwn = (row: Row | undefined, me?: SessionUser | null) => row !== undefined && me != null && me.role !== 'ROOT' && String(row.id) === String(me.id);

/**
 * /settings/: Users/Admins (ROOT, ADMIN) on the generic screen. Removing a user deactivates it;
 * nobody deactivates or demotes themselves, and a manager gives only the roles it manages.
 */
export default function UsersPage() {
  const { t } = useT();
  const { data: me } = useGetIdentity<SessionUser>();
  const manageable = MANAGEABLE_ROLES_BY[me?.role ?? 'TEACHER'];

  const formItem = (field: FieldDef, mode: 'create' | 'update', record: Row | undefined) => {
    const own = mode === 'update' && isOwn(record, me);
    const label = t(`users.fields.${field.name}`);
    if (field.name === 'password' && mode === 'update')
      return <FieldFormItem field={field} label={label} ctx={{ t, mode }} required={false} extra={t('users.passwordHint')} />;
    if (field.name === 'status') {
      if (mode === 'create') return null;
      return (
        <Form.Item name="status" label={label}>
          <Select disabled={own} options={(field.options ?? []).map((s) => ({ value: s, label: t(`activeStates.${s}`) }))} />
        </Form.Item>
      );
    }
    if (field.name === 'role') {
      const current = record?.role as Role | undefined;
      const options = [...new Set([...manageable, ...(current ? [current] : [])])].map((r) => ({
        value: r,
        label: t(`roles.${r}`),
        disabled: !manageable.includes(r),
      }));
      return (
        <Form.Item
          name="role"
          label={label}
          rules={[{ required: true, message: t('forms.required') }]}
          initialValue={mode === 'create' ? manageable[0] : undefined}
        >
          <Select options={options} disabled={own || (current !== undefined && !manageable.includes(current))} />
        </Form.Item>
      );
    }
    return undefined;
  };

  return (
    <ResourceScreen
      def={USERS}
      listFields={['username', 'last_name', 'first_name', 'role', 'email', 'phone', 'status']}
      columns={{ role: { render: (row) => t(`roles.${String(row.role)}`) } }}
      form={{
        item: formItem,
        toBody: (body, mode) => {
          if (mode === 'update' && !body.password) delete body.password;
          return body;
        },
      }}
      // the whole centre's data, for a centre that leaves or keeps a copy
      toolbar={<CentreExportButton />}
      // an empty password on update keeps the current one
      remove={{
        can: (row) => row.status === 'ACTIVE' && !isOwn(row, me),
        labels: { button: t('users.deactivate'), ok: t('buttons.deactivate') },
        confirm: (row) => t('users.deactivateConfirm', { name: `${String(row.first_name)} ${String(row.last_name)}` }),
        done: () => t('users.deactivated'),
      }}
    />
  );
}
