import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '../../engine/list/export-csv';
import { errorText } from '../../providers/errors';
import { fetchBlob } from '../../providers/transfer';

const KINDS = ['receipts', 'payments', 'expenses', 'contracts'] as const;

/**
 * The accountant's spreadsheets of the period the account shows (a month, or a year): one
 * XLSX per kind, from `GET /api/exports/<kind>.xlsx?from=&to=`.
 */
export function AccountExports({ from, to }: { from: string; to: string }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const fetchOne = async (kind: (typeof KINDS)[number]) => {
    setBusy(true);
    try {
      // Headers and values in the language the screen is read in.
      const blob = await fetchBlob(`/api/exports/${kind}.xlsx`, { from, to }, { 'accept-language': i18n.language });
      download(`${t(`exports.sheets.${kind}`)} ${from} ${to}.xlsx`, blob);
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: KINDS.map((kind) => ({ key: kind, label: t(`exports.sheets.${kind}`) })),
        onClick: ({ key }) => void fetchOne(key as (typeof KINDS)[number]),
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy}>
        {t('exports.download')}
      </Button>
    </Dropdown>
  );
}
