import { LinkOutlined, MailOutlined } from '@ant-design/icons';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, App, Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { can } from '../../../domain/access';
import type { GuardianPortalStateAnswer, InvitationLinkAnswer } from '../../../domain/answers/portal';
import { formatInstant } from '../../engine/fields/format';
import { toProviderError, type ProviderError } from '../../providers/dataProvider';
import { useRole } from '../lessons/status';

type PortalState = z.infer<typeof GuardianPortalStateAnswer>;
type HandedLink = z.infer<typeof InvitationLinkAnswer>['data'];

/**
 * The office's view of a guardian's portal access: whether she was invited (and until when the
 * link holds), whether she has signed up, when she last signed in; and, while her access is
 * on, the invitation sent again or a fresh link copied to hand her (either way the older link
 * stops working). Without a mail setting on the
 * server no invitation leaves: she is not shown as invited, and the link is there to copy.
 */
export function PortalAccessCard({ id }: { id: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const role = useRole();
  const [problem, setProblem] = useState<string | null>(null);
  const endpoint = `/api/guardians/${id}/portal`;
  const { query } = useCustom<PortalState, ProviderError>({ url: endpoint, method: 'get', errorNotification: false });
  const state = query.data?.data.data;
  const { mutateAsync, mutation } = useCustomMutation<Record<string, unknown>, ProviderError>();
  const handing = useCustomMutation<{ data: HandedLink }, ProviderError>();
  const [handed, setHanded] = useState<HandedLink | null>(null);

  // A fresh one-time link for the office to hand her (a parent who lost the e-mail): copied
  // when the browser lets us, and shown to copy by hand; the older link stops working.
  const copyLink = async () => {
    setProblem(null);
    try {
      const answer = await handing.mutateAsync({
        url: `/api/guardians/${id}/invitation-link`,
        method: 'post',
        values: {},
        successNotification: false,
        errorNotification: false,
      });
      const link = answer.data.data;
      setHanded(link);
      await query.refetch();
      const copied = await navigator.clipboard?.writeText(link.link).then(
        () => true,
        () => false,
      );
      if (copied) message.success(t('guardians.portal.copied', { until: formatInstant(link.expires_at) }));
    } catch (e) {
      setProblem(toProviderError(e).message);
    }
  };

  const resend = async () => {
    setProblem(null);
    try {
      await mutateAsync({ url: `/api/guardians/${id}/invitation`, method: 'post', values: {}, successNotification: false, errorNotification: false });
      const after = (await query.refetch()).data?.data.data;
      message.success(t(after && !after.mail ? 'guardians.portal.made' : 'guardians.portal.sent'));
    } catch (e) {
      setProblem(toProviderError(e).message);
    }
  };

  const when = (value: string | null | undefined) => (value ? formatInstant(value) : '—');
  const unsent = !!state?.portal && !state.signed_up_at && !state.mail;
  const status = !state?.portal
    ? { color: 'default', text: t('guardians.portal.off') }
    : state.signed_up_at
      ? { color: 'green', text: t('guardians.portal.active') }
      : unsent
        ? { color: 'red', text: t('guardians.portal.notSent') }
        : { color: 'gold', text: t('guardians.portal.invited') };

  return (
    <Card size="small" title={t('guardians.portal.title')} loading={query.isLoading} style={{ marginTop: 16 }} data-testid="portal-access">
      <Space direction="vertical" style={{ width: '100%' }}>
        {query.error && <Alert type="error" message={query.error.message} />}
        {state && (
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('guardians.portal.status')}>
              <Tag color={status.color}>{status.text}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('guardians.portal.invitedAt')}>{when(state.invited_at)}</Descriptions.Item>
            {!state.signed_up_at && <Descriptions.Item label={t('guardians.portal.expiresAt')}>{when(state.invitation_expires_at)}</Descriptions.Item>}
            <Descriptions.Item label={t('guardians.portal.signedUpAt')}>{when(state.signed_up_at)}</Descriptions.Item>
            <Descriptions.Item label={t('guardians.portal.lastSignInAt')}>{when(state.last_sign_in_at)}</Descriptions.Item>
          </Descriptions>
        )}
        {unsent && (
          <Alert
            type="warning"
            data-testid="portal-no-mail"
            message={state?.invitation_link ? t('guardians.portal.noMail', { until: when(state.invitation_expires_at) }) : t('guardians.portal.noMailNoLink')}
            description={
              state?.invitation_link && (
                <Typography.Text copyable aria-label={t('guardians.portal.link')} style={{ wordBreak: 'break-all' }}>
                  {state.invitation_link}
                </Typography.Text>
              )
            }
          />
        )}
        {problem && <Alert type="error" message={problem} />}
        {handed && (
          <Alert
            type="info"
            data-testid="portal-handed-link"
            message={t('guardians.portal.madeLink', { until: formatInstant(handed.expires_at) })}
            description={
              <Typography.Text copyable aria-label={t('guardians.portal.link')} style={{ wordBreak: 'break-all' }}>
                {handed.link}
              </Typography.Text>
            }
          />
        )}
        {state?.portal && can(role, 'guardians', 'update') && !state.signed_up_at && (
          <Space wrap>
            <Button icon={<MailOutlined />} loading={mutation.isPending} onClick={() => void resend()}>
              {t('guardians.portal.resend')}
            </Button>
            <Button icon={<LinkOutlined />} loading={handing.mutation.isPending} onClick={() => void copyLink()} data-testid="portal-copy-link">
              {t('guardians.portal.copyLink')}
            </Button>
          </Space>
        )}
        {state?.portal && can(role, 'guardians', 'update') && state.signed_up_at && (
          <Button icon={<MailOutlined />} loading={mutation.isPending} onClick={() => void resend()}>
            {t('guardians.portal.resend')}
          </Button>
        )}
      </Space>
    </Card>
  );
}
