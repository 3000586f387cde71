import { CloudDownloadOutlined } from '@ant-design/icons';
import { App, Button, Modal, Progress, Typography } from 'antd';
import { useRef, useState } from 'react';
import { can } from '../../domain/access';
import { errorText } from '../providers/errors';
import { downloadWithProgress } from '../providers/transfer';
import { useRole } from './lessons/status';
import { useT, type Translate } from '../providers/i18nProvider';

/** 1536 -> "1,5 KB", in the reader's number format. */
function sizeText(t: Translate, bytes: number): string {
  const format = (n: number) => new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(n);
  if (bytes < 1024) return t('files.bytes', { value: format(bytes) });
  if (bytes < 1024 * 1024) return t('files.kilobytes', { value: format(bytes / 1024) });
  return t('files.megabytes', { value: format(bytes / 1024 / 1024) });
}

/**
 * ROOT and ADMIN: the whole centre as one zip archive (GET /api/export). The server streams
 * it without knowing its length, so the progress says how many bytes have arrived.
 */
export function CentreExportButton() {
  const { t } = useT();
  const role = useRole();
  const { message } = App.useApp();
  const [received, setReceived] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  if (!can(role, 'personalData', 'read')) return null;

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setReceived(0);
    try {
      const blob = await downloadWithProgress('/api/export', { signal: controller.signal, onProgress: (loaded) => setReceived(loaded) });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `frontis-${new Date().toISOString().slice(0, 10)}.zip`;
      a.click();
      URL.revokeObjectURL(url);
      message.success(t('centreExport.done', { size: sizeText(t, blob.size) }));
    } catch (error) {
      if (!controller.signal.aborted) message.error(errorText(error));
    } finally {
      abort.current = null;
      setReceived(null);
    }
  };

  return (
    <>
      <Button icon={<CloudDownloadOutlined />} onClick={start} loading={received !== null} title={t('centreExport.text')}>
        {t('centreExport.start')}
      </Button>
      <Modal
        title={t('centreExport.title')}
        open={received !== null}
        closable={false}
        maskClosable={false}
        footer={<Button onClick={() => abort.current?.abort()}>{t('centreExport.cancel')}</Button>}
      >
        <Typography.Paragraph>{t('centreExport.text')}</Typography.Paragraph>
        <Progress percent={100} status="active" showInfo={false} />
        <Typography.Text role="status">{t('centreExport.progress', { size: sizeText(t, received ?? 0) })}</Typography.Text>
      </Modal>
    </>
  );
}
