import { useForm } from '@refinedev/antd';
import { useCustomMutation } from '@refinedev/core';
import { App, Button, Card, Col, Form, Input, Row, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { USERS, type MyDataRow } from '../../domain/resources/users';
import { isOwnOnly } from '../../domain/permissions';
import { CalendarFeedCard } from '../components/calendar-feed';
import { labelOf, type Translate } from '../engine/fields/format';
import { FieldFormItem } from '../engine/fields/input';
import { fieldOf } from '../engine/resource-screen';
import { offerReload } from '../engine/form/stale';
import { toProviderError, type ProviderError } from '../providers/dataProvider';

type MyData = MyDataRow & Record<string, unknown>;

interface PasswordForm {
  current_password: string;
  password: string;
  confirm_password: string;
}

/** What a user changes of their own account: the person fields of a user. */
const OWN_FIELDS = ['first_name', 'last_name', 'email', 'phone'] as const;

/**
 * /mydata/: the signed-in user's own names, email and phone (Refine's form on the `mydata`
 * row, the field registry's inputs), a password change, and a teacher's calendar link.
 */
export default function MyDataPage() {
  const { t: translate } = useTranslation();
  const t = translate as Translate;
  const { notification, modal } = App.useApp();
  const [passwords] = Form.useForm<PasswordForm>();
  const { formProps, saveButtonProps, query, form } = useForm<MyData, ProviderError>({
    resource: 'mydata',
    action: 'edit',
    id: 'me',
    meta: { singleton: true },
    redirect: false,
    successNotification: () => ({ type: 'success', message: t('mydata.saved') }),
    errorNotification: (error) => (error?.code === 'stale' ? false : { type: 'error', message: error?.message ?? t('errors.internal') }),
    onMutationError: (error) => offerReload(modal, error, () => void query?.refetch().then((r) => r.data && form.setFieldsValue(r.data.data))),
  });
  const data = query?.data?.data;
  const { mutateAsync: changePassword, mutation } = useCustomMutation<Record<string, never>, ProviderError>();

  const submitPassword = async (values: PasswordForm) => {
    try {
      await changePassword({ url: '/api/mydata/password', method: 'post', values, successNotification: false, errorNotification: false });
      passwords.resetFields();
      notification.success({ message: t('mydata.passwordChanged') });
    } catch (error) {
      const failure = toProviderError(error);
      const fields = Object.entries(failure.errors ?? {});
      if (fields.length) passwords.setFields(fields.map(([name, text]) => ({ name: name as keyof PasswordForm, errors: [String(text)] })));
      notification.error({ message: failure.message });
    }
  };

  const required = { required: true, message: t('forms.required') };
  return (
    <>
      <Typography.Title level={3}>{t('mydata.title')}</Typography.Title>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={12}>
          <Card title={t('mydata.details')} loading={query?.isLoading}>
            <Form
              {...formProps}
              layout="vertical"
              onFinish={(values) => {
                const body: Record<string, unknown> = { version: data?.version };
                for (const name of OWN_FIELDS) {
                  const value = (values as Record<string, unknown>)[name];
                  body[name] = typeof value === 'string' && value.trim() === '' ? null : value;
                }
                if (data?.role !== 'ROOT') body.email_notifications = !!(values as Record<string, unknown>).email_notifications;
                return formProps.onFinish?.(body);
              }}
            >
              <Form.Item label={t('users.fields.username')}>
                <Input value={data?.username} disabled />
              </Form.Item>
              {OWN_FIELDS.map((name) => {
                const field = fieldOf(USERS, name)!;
                return <FieldFormItem key={name} field={field} label={labelOf(t, USERS, field)} ctx={{ t, mode: 'update', record: data }} />;
              })}
              {data?.role !== 'ROOT' && (
                <Form.Item name="email_notifications" label={t('notifications.emailCopy')} valuePropName="checked" extra={t('notifications.emailCopyHelp')}>
                  <Switch />
                </Form.Item>
              )}
              <Button type="primary" {...saveButtonProps}>
                {t('buttons.save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('mydata.changePassword')}>
            <Form<PasswordForm> form={passwords} layout="vertical" onFinish={(values) => void submitPassword(values)}>
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
              <Button type="primary" htmlType="submit" loading={mutation.isPending}>
                {t('mydata.changePassword')}
              </Button>
            </Form>
          </Card>
        </Col>
        {/* a feed of one's own lessons: for whom the matrix narrows to them */}
        {data && isOwnOnly(data.role, 'lessons') && (
          <Col xs={24} lg={12}>
            <CalendarFeedCard endpoint="/api/mydata/calendar-feed" />
          </Col>
        )}
      </Row>
    </>
  );
}
