import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOffline } from '../providers/connectivity';

/** While the server can't be reached: says so (announced), and that the app keeps trying. */
export function OfflineBanner() {
  const offline = useOffline();
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className="frontis-offline">
      {offline && <Alert type="warning" banner showIcon message={t('typing.offline.banner')} />}
    </div>
  );
}
