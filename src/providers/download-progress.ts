import type { Transport } from './http';

/**
 * A transport for the HTTP client that reports how much of the answer has arrived (a large
 * download such as the centre's archive): XMLHttpRequest, whose progress events `fetch` lacks.
 * `total` is 0 when the server does not say the length (a streamed archive). The session's
 * headers, refresh and errors stay with the client.
 */
export function withDownloadProgress(onProgress: (loaded: number, total: number) => void): Transport {
  return ({ method, url, headers, body, signal }) =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.responseType = 'blob';
      xhr.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
      xhr.onload = () => {
        const answerHeaders: Record<string, string> = {};
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const colon = line.indexOf(':');
          if (colon > 0) answerHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        resolve({ status: xhr.status, headers: answerHeaders, body: xhr.response as Blob });
      };
      xhr.onerror = () => reject(new TypeError('Network Error'));
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => reject(new DOMException('canceled', 'AbortError'));
      if (signal?.aborted) return reject(new DOMException('canceled', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send((body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
