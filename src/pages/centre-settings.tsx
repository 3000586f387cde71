import { useForm } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Radio, Row, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SettingsAnswer } from '../../domain/answers/settings';
import { isValidTaxId } from '../../domain/tax-id';
import { errorText } from '../providers/errors';
import { ScreenTitle } from '../components/headings';

/** GET/PATCH /api/settings (the subscription key only ever sent, never read back). */
type CentreSettings = SettingsAnswer & Record<string, unknown>;

const TEXT_FIELDS = [
  ['legal_name', 200],
  ['tax_id', 9],
  ['tax_office', 100],
  ['address', 200],
  ['city', 100],
  ['postal_code', 6],
  ['phone', 30],
  ['email', 200],
] as const;

/**
 * /settings/centre/: the centre as the issuer of its receipts (legal name, ΑΦΜ checked by its
 * check digit, ΔΟΥ, address, contacts), its receipt series, myDATA with the AADE user and the
 * write-only subscription key, and the reminders' schedule. ADMIN only.
 */
export default function CentreSettingsPage() {
  const { t } = useTranslation();
  const { formProps, saveButtonProps, query, mutation } = useForm<CentreSettings, HttpError>({
    resource: 'settings',
    action: 'edit',
    id: 'centre',
    meta: { singleton: true },
    redirect: false,
    successNotification: () => ({ type: 'success', message: t('centre-settings.saved') }),
    errorNotification: false,
  });
  const row = query?.data?.data;
  const label = (name: string) => t(`centre-settings.fields.${name}`);
  const turningOn = Form.useWatch('mydata_enabled', formProps.form) === true && row?.mydata_enabled === false;
  // Receipts issued while myDATA was off: AADE gets them only if the centre says so.
  const askEarlier = turningOn && (row?.mydata_unsent ?? 0) > 0;
  const missingIssuer = row && (!row.legal_name || !row.tax_id);

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <ScreenTitle style={{ margin: 0 }}>{t('centre-settings.title')}</ScreenTitle>
      {missingIssuer && <Alert type="warning" showIcon message={t('receipts.missingIssuer')} />}
      <Form
        {...formProps}
        layout="vertical"
        onFinish={(raw) => {
          const values = raw as Record<string, unknown>;
          const body: Record<string, unknown> = { version: row?.version };
          for (const [name] of TEXT_FIELDS) {
            const v = values[name];
            body[name] = typeof v === 'string' && v.trim() ? v.trim() : null;
          }
          body.receipt_series = values.receipt_series;
          body.mydata_enabled = values.mydata_enabled === true;
          body.mydata_user_id = typeof values.mydata_user_id === 'string' && values.mydata_user_id.trim() ? values.mydata_user_id.trim() : null;
          // Sent only when typed: an empty box keeps the stored key.
          if (typeof values.mydata_subscription_key === 'string' && values.mydata_subscription_key.trim())
            body.mydata_subscription_key = values.mydata_subscription_key.trim();
          if (askEarlier) body.mydata_send_earlier = values.mydata_send_earlier === 'send';
          body.reminder_day = values.reminder_day;
          body.reminder_repeat_days = values.reminder_repeat_days;
          body.sms_sender = typeof values.sms_sender === 'string' && values.sms_sender.trim() ? values.sms_sender.trim() : null;
          return formProps.onFinish?.(body);
        }}
      >
        <Form.Item name="version" hidden>
          <Input />
        </Form.Item>
        <Card title={t('centre-settings.issuer')} style={{ marginBottom: 16 }}>
          <Row gutter={16}>
            {TEXT_FIELDS.map(([name, max]) => (
              <Col xs={24} md={12} key={name}>
                <Form.Item
                  name={name}
                  label={label(name)}
                  rules={
                    name === 'tax_id'
                      ? [
                          {
                            validator: (_rule, value: unknown) =>
                              !value || (typeof value === 'string' && isValidTaxId(value.trim()))
                                ? Promise.resolve()
                                : Promise.reject(new Error(t('centre-settings.invalidTaxId'))),
                          },
                        ]
                      : name === 'email'
                        ? [{ type: 'email', message: t('forms.email') }]
                        : []
                  }
                >
                  <Input maxLength={max} aria-label={label(name)} inputMode={name === 'tax_id' || name === 'postal_code' ? 'numeric' : undefined} />
                </Form.Item>
              </Col>
            ))}
            <Col xs={24} md={12}>
              <Form.Item name="receipt_series" label={label('receipt_series')} rules={[{ required: true, message: t('forms.required') }]}>
                <Input maxLength={10} aria-label={label('receipt_series')} />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card title={t('centre-settings.mydata')} style={{ marginBottom: 16 }}>
          <Form.Item name="mydata_enabled" label={label('mydata_enabled')} valuePropName="checked">
            <Switch aria-label={label('mydata_enabled')} />
          </Form.Item>
          {askEarlier && (
            <Form.Item label={t('centre-settings.earlier', { count: row?.mydata_unsent ?? 0 })} required>
              {/* antd's radio group draws no radiogroup role: the wrapper gives the question its name */}
              <div role="radiogroup" aria-label={t('centre-settings.earlier', { count: row?.mydata_unsent ?? 0 })}>
                <Form.Item name="mydata_send_earlier" noStyle rules={[{ required: true, message: t('centre-settings.earlierRequired') }]}>
                  <Radio.Group>
                    <Space direction="vertical">
                      <Radio value="send">{t('centre-settings.earlierSend', { count: row?.mydata_unsent ?? 0 })}</Radio>
                      <Radio value="from-now">{t('centre-settings.earlierFromNow')}</Radio>
                    </Space>
                  </Radio.Group>
                </Form.Item>
              </div>
            </Form.Item>
          )}
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="mydata_user_id" label={label('mydata_user_id')}>
                <Input maxLength={100} aria-label={label('mydata_user_id')} autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="mydata_subscription_key"
                label={label('mydata_subscription_key')}
                extra={row?.mydata_subscription_key_set ? t('centre-settings.keySet') : t('centre-settings.keyNotSet')}
              >
                <Input.Password maxLength={200} aria-label={label('mydata_subscription_key')} autoComplete="new-password" />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card title={t('centre-settings.reminders')} style={{ marginBottom: 16 }}>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="reminder_day" label={label('reminder_day')} rules={[{ required: true, message: t('forms.required') }]}>
                <InputNumber min={1} max={28} style={{ width: '100%' }} aria-label={label('reminder_day')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="reminder_repeat_days" label={label('reminder_repeat_days')} rules={[{ required: true, message: t('forms.required') }]}>
                <InputNumber min={1} max={90} style={{ width: '100%' }} aria-label={label('reminder_repeat_days')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="sms_sender"
                label={label('sms_sender')}
                extra={t('centre-settings.smsSenderHint')}
                rules={[{ pattern: /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/, message: t('centre-settings.smsSenderHint') }]}
              >
                <Input maxLength={11} aria-label={label('sms_sender')} />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        {mutation.error && <Alert type="error" showIcon role="alert" message={errorText(mutation.error)} style={{ marginBottom: 16 }} />}
        {/* never greyed out while the settings load (unreadable in the dark theme); a save in flight shows its spinner */}
        <Button type="primary" {...saveButtonProps} disabled={false}>
          {t('buttons.save')}
        </Button>
      </Form>
    </Space>
  );
}
