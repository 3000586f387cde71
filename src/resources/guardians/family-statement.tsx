import { FileTextOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can } from '../../../domain/access';
import { errorText } from '../../providers/errors';
import { openPdfFrom } from '../money/fiscal-receipt';
import { useRole } from '../lessons/status';

/** Opens her family statement (every child's contracts: due, paid, left) as a printable PDF. */
export function FamilyStatementButton({ id }: { id: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  if (!can(useRole(), 'payments', 'read')) return null;
  const open = async () => {
    setBusy(true);
    try {
      await openPdfFrom(`/api/guardians/${id}/statement.pdf`);
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon={<FileTextOutlined />}
      loading={busy}
      title={t('guardians.statementHint')}
      onClick={() => void open()}
      style={{ marginTop: 16 }}
      data-testid="family-statement"
    >
      {t('guardians.statement')}
    </Button>
  );
}
