import { useCustomMutation } from '@refinedev/core';
import { App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { toProviderError, type ProviderError } from '../providers/dataProvider';

interface PasswordForm {
  current_password: string;
  password: string;
  confirm_password: string;
}

/** The signed-in person's password change (staff and guardians alike): the current one, the new one twice. */
export function PasswordCard() {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [passwords] = Form.useForm<PasswordForm>();
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
  );
}
