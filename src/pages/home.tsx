import { useGetIdentity } from '@refinedev/core';
import { Card, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '../providers/session';

/** The home route '/'. The lesson calendar replaces this welcome in a later issue. */
export default function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useGetIdentity<SessionUser>();
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : '';
  return (
    <>
      <Typography.Title level={3}>{t('calendar.title')}</Typography.Title>
      <Card>
        <Result status="info" title={t('calendar.welcome', { name })} subTitle={t('calendar.comingSoon')} />
      </Card>
    </>
  );
}
