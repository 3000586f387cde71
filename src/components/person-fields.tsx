import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** First and last name, email and phone of a staff account (Users/Admins and My data). */
export function PersonFields() {
  const { t } = useTranslation();
  const required = { required: true, message: t('forms.required') };
  return (
    <>
      <Form.Item name="first_name" label={t('users.fields.first_name')} rules={[required]}>
        <Input />
      </Form.Item>
      <Form.Item name="last_name" label={t('users.fields.last_name')} rules={[required]}>
        <Input />
      </Form.Item>
      <Form.Item name="email" label={t('users.fields.email')} rules={[{ type: 'email', message: t('forms.email') }]}>
        <Input type="email" />
      </Form.Item>
      <Form.Item name="phone" label={t('users.fields.phone')}>
        <Input type="tel" />
      </Form.Item>
    </>
  );
}
