import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('pages.error.404')}
      subTitle={t('pages.error.info')}
      extra={
        <Link to="/">
          <Button type="primary">{t('pages.error.backHome')}</Button>
        </Link>
      }
    />
  );
}
