import { Divider, Form, Input, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { DEFAULT_TIME_ZONE, LANGUAGES } from '../../domain/enums';
import type { FieldDef } from '../../domain/fields';
import { TENANTS } from '../../domain/resources/tenants';
import { ResourceScreen } from '../engine/resource-screen';
import { useT, type Translate } from '../providers/i18nProvider';

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [DEFAULT_TIME_ZONE];
  }
}

/** The first ADMIN of a new centre: sent with it as `admin`. */
function FirstAdmin({ t }: { t: Translate }) {
  const required = { required: true, message: t('forms.required') };
  return (
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
  );
}

/** /tenants/ (ROOT only): the centres on the generic screen. Removing one deactivates it. */
export default function TenantsPage() {
  const { t } = useT();
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);

  const formItem = (field: FieldDef, mode: 'create' | 'update') => {
    const label = t(`tenants.fields.${field.name}`);
    if (field.name === 'status' && mode === 'create') return null;
    if (field.name === 'time_zone')
      return (
        <Form.Item name="time_zone" label={label}>
          <Select showSearch options={zones} />
        </Form.Item>
      );
    if (field.name === 'language')
      return (
        <Form.Item name="language" label={label}>
          <Select options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
        </Form.Item>
      );
    return undefined;
  };

  return (
    <ResourceScreen
      def={TENANTS}
      listFields={['slug', 'name', 'status', 'time_zone', 'language']}
      columns={{ language: { render: (row) => t(`languages.${String(row.language)}`) } }}
      form={{
        item: formItem,
        extra: (mode) => (mode === 'create' ? <FirstAdmin t={t} /> : null),
        toBody: (body, mode, raw) => (mode === 'create' ? { ...body, admin: raw.admin } : body),
      }}
      remove={{
        can: (row) => row.status === 'ACTIVE',
        labels: { button: t('tenants.deactivate'), ok: t('buttons.deactivate') },
        confirm: (row) => t('tenants.deactivateConfirm', { name: String(row.name) }),
      }}
    />
  );
}
