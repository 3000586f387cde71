import { Modal } from 'antd';
import { fetchBlob } from '../../providers/transfer';

export interface Preview {
  name: string;
  type: string;
  url: string;
}

/**
 * Saves a file under its own name. The API wants the client's headers, so the bytes come
 * through the app's HTTP client and are handed to the browser as a download.
 */
/** A name inside a sentence, isolated (U+2068…U+2069) so its direction cannot reorder the sentence. */
export const isolate = (name: string) => `\u2068${name}\u2069`;

export async function saveFile(file: { id: number; name: string }) {
  const url = URL.createObjectURL(await fetchBlob(`/api/files/${file.id}/content`));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * An image or PDF shown in place. Only types the server sniffed as images or PDF get here, so
 * what is shown is never a page that could run scripts.
 */
export function FilePreview({ preview, onClose }: { preview: Preview | null; onClose(): void }) {
  const close = () => {
    if (preview) URL.revokeObjectURL(preview.url);
    onClose();
  };
  return (
    <Modal open={preview !== null} title={preview ? <bdi>{preview.name}</bdi> : null} onCancel={close} footer={null} width="min(90vw, 960px)" destroyOnHidden>
      {preview?.type === 'application/pdf' ? (
        <object data={preview.url} type="application/pdf" style={{ width: '100%', height: '75vh' }} aria-label={preview.name} />
      ) : preview ? (
        <img src={preview.url} alt={preview.name} style={{ maxWidth: '100%' }} />
      ) : null}
    </Modal>
  );
}
