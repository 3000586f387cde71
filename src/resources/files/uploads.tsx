import { isolate } from './preview';
import { CloseOutlined } from '@ant-design/icons';
import { Button, List, Progress, Typography } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../providers/errors';
import { toApiError } from '../../providers/http';
import { uploadWithProgress } from '../../providers/transfer';

export interface Upload {
  key: number;
  name: string;
  percent: number;
  status: 'uploading' | 'done' | 'cancelled' | 'failed';
  error?: string;
  cancel(): void;
}

/**
 * Uploads, one request a file (so each has its own progress and cancel), two at a time.
 * A cancelled upload aborts its request; the server then keeps nothing of it.
 */
export function useUploads(onUploaded: () => void) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Upload[]>([]);
  const next = useRef(0);
  const queue = useRef<Array<() => Promise<void>>>([]);
  const running = useRef(0);

  const update = useCallback((key: number, change: Partial<Upload>) => setItems((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u))), []);

  const pump = useCallback(() => {
    while (running.current < 2 && queue.current.length) {
      const job = queue.current.shift()!;
      running.current += 1;
      void job().finally(() => {
        running.current -= 1;
        pump();
      });
    }
  }, []);

  const add = useCallback(
    (files: File[], folderId: number | null) => {
      for (const file of files) {
        const key = next.current++;
        const controller = new AbortController();
        const item: Upload = { key, name: file.name, percent: 0, status: 'uploading', cancel: () => controller.abort() };
        setItems((list) => [...list, item]);
        queue.current.push(async () => {
          if (controller.signal.aborted) {
            update(key, { status: 'cancelled' });
            return;
          }
          const body = new FormData();
          body.append('file', file, file.name);
          try {
            await uploadWithProgress('/api/files', body, {
              params: folderId === null ? undefined : { folder_id: folderId },
              signal: controller.signal,
              onProgress: (loaded, total) => update(key, { percent: total ? Math.min(99, Math.round((loaded / total) * 100)) : 0 }),
            });
            update(key, { status: 'done', percent: 100 });
            onUploaded();
          } catch (error) {
            if (controller.signal.aborted) update(key, { status: 'cancelled' });
            else {
              const apiError = toApiError(error);
              update(key, { status: 'failed', error: apiError.code === 'too-large' ? t('files.tooLarge', { name: isolate(file.name) }) : errorText(apiError) });
            }
          }
        });
      }
      pump();
    },
    [onUploaded, pump, t, update],
  );

  return { items, add, clear: () => setItems((list) => list.filter((u) => u.status === 'uploading')) };
}

export function UploadList({ uploads }: { uploads: ReturnType<typeof useUploads> }) {
  const { t } = useTranslation();
  if (!uploads.items.length) return null;
  const statusText = { uploading: t('files.uploading'), done: t('files.uploaded'), cancelled: t('files.cancelled'), failed: t('files.failed') };
  return (
    <List
      size="small"
      bordered
      className="frontis-uploads"
      dataSource={uploads.items}
      footer={
        uploads.items.some((u) => u.status !== 'uploading') ? (
          <Button size="small" type="link" onClick={uploads.clear}>
            {t('buttons.clear')}
          </Button>
        ) : null
      }
      renderItem={(u) => (
        <List.Item
          data-testid="upload"
          aria-label={u.name}
          actions={
            u.status === 'uploading'
              ? [
                  <Button
                    key="cancel"
                    size="small"
                    icon={<CloseOutlined />}
                    aria-label={`${t('files.cancel')} ${u.name}`}
                    title={t('files.cancel')}
                    onClick={u.cancel}
                  />,
                ]
              : []
          }
        >
          <div style={{ width: '100%' }}>
            <Typography.Text ellipsis>
              <bdi>{u.name}</bdi>
            </Typography.Text>{' '}
            <Typography.Text type="secondary">· {statusText[u.status]}</Typography.Text>
            <Progress
              percent={u.percent}
              size="small"
              status={u.status === 'failed' || u.status === 'cancelled' ? 'exception' : u.status === 'done' ? 'success' : 'active'}
            />
            {u.error && <Typography.Text type="danger">{u.error}</Typography.Text>}
          </div>
        </List.Item>
      )}
    />
  );
}
