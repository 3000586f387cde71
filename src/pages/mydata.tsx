import { useForm } from '@refinedev/antd';
import { Button, Card, Col, Form, Input, Row, Switch } from 'antd';
import { useRef } from 'react';
import { USERS, type MyDataRow } from '../../domain/resources/users';
import { isOwnOnly } from '../../domain/permissions';
import { CalendarFeedCard } from '../components/calendar-feed';
import { PasswordCard } from '../components/password-card';
import { labelOf } from '../engine/fields/format';
import { FieldFormItem } from '../engine/fields/input';
import { fieldOf } from '../engine/resource-screen';
import { useKeptOnStale, useStaleChoice } from '../engine/form/drawer-form';
import { useLeaveGuard } from '../engine/form/leave-guard';
import type { ProviderError } from '../providers/dataProvider';
import { ScreenTitle } from '../components/headings';
import { useT } from '../providers/i18nProvider';

type MyData = MyDataRow & Record<string, unknown>;

/** What a user changes of their own account: the person fields of a user. */
const OWN_FIELDS = ['first_name', 'last_name', 'email', 'phone'] as const;

/**
 * /mydata/: the signed-in user's own names, email and phone (Refine's form on the `mydata`
 * row, the field registry's inputs), a password change (PasswordCard), and a teacher's calendar link.
 */
export default function MyDataPage() {
  const { t } = useT();
  const unsaved = useRef(false);
  const stale = useStaleChoice((name) => t(`users.fields.${name}`));
  const result = useForm<MyData, ProviderError>({
    resource: 'mydata',
    action: 'edit',
    id: 'me',
    meta: { singleton: true },
    redirect: false,
    successNotification: () => ({ type: 'success', message: t('mydata.saved') }),
    errorNotification: (error) => (error?.code === 'stale' ? false : { type: 'error', message: error?.message ?? t('errors.internal') }),
    onMutationSuccess: () => {
      stale.saved();
      unsaved.current = false;
    },
    onMutationError: stale.onMutationError,
  });
  const { formProps, saveButtonProps, query } = result;
  useKeptOnStale(stale, result);
  // changed since the last save: leaving the page asks first
  useLeaveGuard(() => stale.holding() || unsaved.current);
  const data = query?.data?.data;
  return (
    <>
      <ScreenTitle>{t('mydata.title')}</ScreenTitle>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={12}>
          <Card title={t('mydata.details')} loading={query?.isLoading}>
            <Form
              {...formProps}
              onValuesChange={(changed, all) => {
                unsaved.current = true;
                formProps.onValuesChange?.(changed, all);
              }}
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
              <Form.Item label={t('users.fields.username')} htmlFor="mydata-username">
                <Input id="mydata-username" value={data?.username} disabled />
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
          <PasswordCard />
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
