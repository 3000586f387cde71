import { http, type Params } from './http';
import { withDownloadProgress } from './download-progress';
import { withUploadProgress } from './upload-progress';

// The client's only calls beside Refine's data provider and hooks, and why they are not
// through it: the data provider speaks JSON and cannot tell how far an upload has gone. These
// two move bytes: a body whose progress a bar shows (fetch cannot report it, so XMLHttpRequest
// carries it: upload-progress.ts), and a stored file's content as a Blob. The session, its
// refresh and the error envelope are the same HTTP client's as every other call's.

/** POSTs `body` (a FormData or JSON) reporting how much has gone out; resolves with the answer's body. */
export async function uploadWithProgress<T>(
  url: string,
  body: unknown,
  options: { params?: Params; signal?: AbortSignal; onProgress(loaded: number, total: number): void },
): Promise<T> {
  const { data } = await http.post<T>(url, body, { params: options.params, signal: options.signal, transport: withUploadProgress(options.onProgress) });
  return data;
}

/** GETs a JSON answer (a long import's progress, polled); resolves with its body. */
export async function fetchJson<T>(url: string): Promise<T> {
  const { data } = await http.get<T>(url);
  return data;
}

/** A file's bytes (the API wants the app's headers, so a plain link cannot fetch them); `headers` beside them (the reader's language). */
export async function fetchBlob(url: string, params?: Params, headers?: Record<string, string>): Promise<Blob> {
  const { data } = await http.get<Blob>(url, { params, responseType: 'blob', headers });
  return data;
}

/** GETs a large answer as a Blob, reporting how many bytes have arrived (the centre's archive). */
export async function downloadWithProgress(url: string, options: { signal?: AbortSignal; onProgress(loaded: number, total: number): void }): Promise<Blob> {
  const { data } = await http.get<Blob>(url, { signal: options.signal, responseType: 'blob', transport: withDownloadProgress(options.onProgress) });
  return data;
}
