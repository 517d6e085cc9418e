/** How much of a request's body has been sent: 0 to 1. */
export type UploadProgress = (fraction: number) => void;

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
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) =>
        xhr.setRequestHeader(name, value),
      );
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      });
      xhr.addEventListener('load', () => {
        onProgress(1);
        resolve(
          new Response(xhr.status === 204 ? null : xhr.responseText, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: headersOf(xhr.getAllResponseHeaders()),
          }),
        );
      });
      const failed = () => reject(new TypeError('Failed to fetch'));
      xhr.addEventListener('error', failed);
      xhr.addEventListener('timeout', failed);
      xhr.addEventListener('abort', () =>
        reject(new DOMException('The request was aborted.', 'AbortError')),
      );
      if (request.signal.aborted) xhr.abort();
      else
        request.signal.addEventListener('abort', () => xhr.abort(), {
          once: true,
        });
      xhr.send(body);
    });
  };
