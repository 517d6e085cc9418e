/** How much of a request's body has been sent: 0 to 1. */
export type UploadProgress = (fraction: number) => void;

/** Statuses whose Response has no body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** What fetch rejects with for an aborted request: the signal's reason, if it has one. */
const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error
    ? signal.reason
    : new DOMException('The request was aborted.', 'AbortError');

const headersOf = (raw: string): Headers => {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
};

/**
 * A `fetch` for one request that reports how much of its body has gone out.
 * fetch itself reports no upload progress (a streamed request body needs
 * HTTP/2, which the API is not served over everywhere), XMLHttpRequest
 * does. Fails as fetch does: a TypeError when no answer came, an
 * AbortError when the request's signal aborted it.
 */
export const xhrFetch =
  (onProgress: UploadProgress) =>
  async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.method === 'GET' ? null : await request.text();
    const { signal } = request;
    // An XMLHttpRequest not yet sent ignores abort(): nothing goes out.
    if (signal.aborted) throw abortError(signal);
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) =>
        xhr.setRequestHeader(name, value),
      );
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      });
      const stop = () => xhr.abort();
      xhr.addEventListener('loadend', () =>
        signal.removeEventListener('abort', stop),
      );
      xhr.addEventListener('load', () => {
        onProgress(1);
        try {
          resolve(
            new Response(NO_BODY.has(xhr.status) ? null : xhr.responseText, {
              status: xhr.status,
              statusText: xhr.statusText,
              headers: headersOf(xhr.getAllResponseHeaders()),
            }),
          );
        } catch {
          // A status no Response can carry: as fetch, no usable answer.
          reject(new TypeError('Failed to fetch'));
        }
      });
      const failed = () => reject(new TypeError('Failed to fetch'));
      xhr.addEventListener('error', failed);
      xhr.addEventListener('timeout', failed);
      xhr.addEventListener('abort', () => reject(abortError(signal)));
      signal.addEventListener('abort', stop, { once: true });
      xhr.send(body);
    });
  };
