import { useCustomMutation } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, Row, Spin } from 'antd';
import { useRef } from 'react';
import type { z } from 'zod';
import type { PortalMeUpdate } from '../../../domain/answers/portal';
import { GUARDIANS } from '../../../domain/resources/people';
import { PasswordCard } from '../../components/password-card';
import { labelOf } from '../../engine/fields/format';
import { FieldFormItem } from '../../engine/fields/input';
import { useKeptOnStale, useStaleChoice } from '../../engine/form/drawer-form';
import { useLeaveGuard } from '../../engine/form/leave-guard';
import { fieldOf } from '../../engine/resource-screen';
import { toProviderError, type ProviderError } from '../../providers/dataProvider';
import { LoadError, PORTAL_ME_KEY, PORTAL_ME_URL, type PortalMe, usePortalMe } from './portal-data';
import { ScreenTitle } from '../../components/headings';
import { useT } from '../../providers/i18nProvider';

type Update = z.infer<typeof PortalMeUpdate>;

/** What she changes of herself; her name, e-mail address (her sign-in) and ΑΦΜ are the centre's to change. */
const OWN_FIELDS = ['phone', 'address', 'city', 'postal_code', 'notify', 'notify_by'] as const;

/**
 * /portal/details/: her contact details and notice preference, saved with the version she read
 * (someone at the centre may have changed them meanwhile: she then chooses whose to keep), and
 * her password.
 */
export default function PortalDetails() {
  const { t } = useT();
  const { notification } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Update>();
  const unsaved = useRef(false);
  const { me, query } = usePortalMe();
  const guardian = me?.guardian;
  const stale = useStaleChoice((name) => labelOf(t, GUARDIANS, fieldOf(GUARDIANS, name) ?? { name, type: 'TEXT' }));
  useKeptOnStale(stale, {
    form,
    query: {
      data: { data: guardian },
      refetch: async () => ({ data: { data: (await query.refetch()).data?.data.data.guardian } }),
    },
  });
  useLeaveGuard(() => stale.holding() || unsaved.current);
  const { mutateAsync: save, mutation } = useCustomMutation<{ data: PortalMe }, ProviderError>();

  const submit = async (values: Update) => {
    const body: Record<string, unknown> = { version: values.version };
    for (const name of OWN_FIELDS) {
      const value = (values as Record<string, unknown>)[name];
      if (name === 'notify_by') {
        if (value) body[name] = value;
      } else body[name] = name === 'notify' ? Boolean(value) : typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
    }
    try {
      const answer = await save({ url: PORTAL_ME_URL, method: 'patch', values: body, successNotification: false, errorNotification: false });
      stale.saved();
      unsaved.current = false;
      queryClient.setQueryData(PORTAL_ME_KEY, answer);
      form.setFieldsValue(answer.data.data.guardian);
      notification.success({ message: t('mydata.saved') });
    } catch (error) {
      const failure = toProviderError(error);
      if (failure.code === 'stale') return stale.onMutationError(failure);
      const fields = Object.entries(failure.errors ?? {});
      if (fields.length) form.setFields(fields.map(([name, text]) => ({ name: name as keyof Update, errors: [String(text)] })));
      notification.error({ message: failure.message });
    }
  };

  return (
    <>
      <ScreenTitle>{t('portal.details.title')}</ScreenTitle>
      {query.isError && <LoadError error={query.error} />}
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={12}>
          <Card title={guardian ? `${guardian.first_name} ${guardian.last_name}` : t('portal.details.title')}>
            {!guardian && query.isLoading && <Spin />}
            {guardian?.unreachable && (
              <Alert type="warning" showIcon style={{ marginBottom: 16 }} data-testid="portal-unreachable" message={t('guardians.unreachableHint')} />
            )}
            {guardian && (
              <Form<Update>
                form={form}
                layout="vertical"
                initialValues={guardian}
                onValuesChange={() => {
                  unsaved.current = true;
                }}
                onFinish={(values) => void submit(values)}
              >
                <Form.Item name="version" hidden>
                  <Input />
                </Form.Item>
                <Form.Item label={t('guardians.fields.email')} htmlFor="portal-email" extra={t('portal.details.emailHint')}>
                  <Input id="portal-email" value={guardian.email ?? ''} disabled />
                </Form.Item>
                {OWN_FIELDS.map((name) => {
                  const field = fieldOf(GUARDIANS, name)!;
                  return (
                    <FieldFormItem
                      key={name}
                      field={field}
                      label={labelOf(t, GUARDIANS, field)}
                      ctx={{ t, mode: 'update', record: guardian }}
                      extra={name === 'notify' ? t('portal.details.notifyHint') : undefined}
                    />
                  );
                })}
                <Button type="primary" htmlType="submit" loading={mutation.isPending}>
                  {t('buttons.save')}
                </Button>
              </Form>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <PasswordCard />
        </Col>
      </Row>
    </>
  );
}
