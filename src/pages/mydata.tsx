import { CalendarFeedCard } from '../components/calendar-feed';
import { PersonFields } from '../components/person-fields';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '../../domain/enums';
import { offerReload } from '../components/stale';
import { errorText, fieldErrors } from '../providers/errors';
import { http } from '../providers/http';
import { toApiError } from '../providers/http';

interface MyData {
  id: number;
  username: string;
  role: Role;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  version: number;
}

interface PasswordForm {
  current_password: string;
  password: string;
  confirm_password: string;
}

const KEY = ['mydata'];

/** /mydata/: the signed-in user's own names, email and phone, and a password change. */
export default function MyDataPage() {
  const { t } = useTranslation();
  const { notification, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [details] = Form.useForm<MyData>();
  const [passwords] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);
  const [changing, setChanging] = useState(false);
  const { data, isLoading, refetch } = useQuery({
    queryKey: KEY,
    queryFn: async () => (await http.get<{ data: MyData }>('/api/mydata')).data.data,
  });

  const showFieldErrors = (form: typeof details | typeof passwords, error: unknown) => {
    const fields = fieldErrors(error);
    const names = Object.keys(fields);
    if (names.length) form.setFields(names.map((name) => ({ name: name as never, errors: [fields[name]!] })));
    notification.error({ message: errorText(error) });
  };

  const save = async (values: MyData) => {
    setSaving(true);
    try {
      const body = {
        first_name: values.first_name,
        last_name: values.last_name,
        email: values.email || null,
        phone: values.phone || null,
        version: data?.version,
      };
      const answer = await http.patch<{ data: MyData }>('/api/mydata', body);
      queryClient.setQueryData(KEY, answer.data.data);
      details.setFieldsValue(answer.data.data);
      notification.success({ message: t('mydata.saved') });
    } catch (error) {
      const reloaded = offerReload(modal, toApiError(error), () => void refetch().then((r) => r.data && details.setFieldsValue(r.data)));
      if (!reloaded) showFieldErrors(details, error);
    } finally {
      setSaving(false);
    }
  };

  const changePassword = async (values: PasswordForm) => {
    setChanging(true);
    try {
      await http.post('/api/mydata/password', values);
      passwords.resetFields();
      notification.success({ message: t('mydata.passwordChanged') });
    } catch (error) {
      showFieldErrors(passwords, error);
    } finally {
      setChanging(false);
    }
  };

  const required = { required: true, message: t('forms.required') };
  return (
    <>
      <Typography.Title level={3}>{t('mydata.title')}</Typography.Title>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={12}>
          <Card title={t('mydata.details')} loading={isLoading}>
            {data && (
              <Form<MyData> form={details} layout="vertical" initialValues={data} onFinish={save}>
                <Form.Item label={t('users.fields.username')}>
                  <Input value={data.username} disabled />
                </Form.Item>
                <PersonFields />
                <Button type="primary" htmlType="submit" loading={saving}>
                  {t('buttons.save')}
                </Button>
              </Form>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('mydata.changePassword')}>
            <Form<PasswordForm> form={passwords} layout="vertical" onFinish={changePassword}>
              <Form.Item name="current_password" label={t('mydata.currentPassword')} rules={[required]}>
                <Input.Password autoComplete="current-password" />
              </Form.Item>
              <Form.Item name="password" label={t('mydata.newPassword')} rules={[required, { min: 8, message: t('forms.tooShort', { min: 8 }) }]}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="confirm_password"
                label={t('mydata.confirmPassword')}
                dependencies={['password']}
                rules={[
                  required,
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(t('mydata.passwordsDiffer'))),
                  }),
                ]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={changing}>
                {t('mydata.changePassword')}
              </Button>
            </Form>
          </Card>
        </Col>
        {data?.role === 'TEACHER' && (
          <Col xs={24} lg={12}>
            <CalendarFeedCard endpoint="/api/mydata/calendar-feed" />
          </Col>
        )}
      </Row>
    </>
  );
}
