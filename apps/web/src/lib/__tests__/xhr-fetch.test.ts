import { afterEach, describe, expect, it, vi } from 'vitest';
import { xhrFetch } from '../xhr-fetch';

type Listener = (e: ProgressEvent | Event) => void;

/**
 * An XMLHttpRequest whose network the test drives: `sending` is the one in
 * flight, `progress` reports bytes gone out, `answer`/`fail` end it.
 */
class FakeXhr {
  static sending: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  private responseHeaders = '';
  private listeners = new Map<string, Listener[]>();
  private uploadListeners = new Map<string, Listener[]>();
  upload = {
    addEventListener: (type: string, l: Listener) =>
      this.uploadListeners.set(type, [
        ...(this.uploadListeners.get(type) ?? []),
        l,
      ]),
  };
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, l: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sending = this;
  }
  /** As the spec says: an abort before send() fires nothing. */
  abort() {
    if (FakeXhr.sending === this) this.emit('abort');
  }
  progress(loaded: number, total: number) {
    for (const l of this.uploadListeners.get('progress') ?? [])
      l(
        new ProgressEvent('progress', {
          lengthComputable: true,
          loaded,
          total,
        }),
      );
  }
  answer(status: number, body: string, headers: string) {
    this.status = status;
    this.responseText = body;
    this.responseHeaders = headers;
    this.emit('load');
    this.emit('loadend');
  }
  emit(type: string) {
    for (const l of this.listeners.get(type) ?? []) l(new Event(type));
  }
}

const post = (init: RequestInit = {}) =>
  new Request('http://api.test/api/storage/upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
    body: JSON.stringify({ data: 'AAAA' }),
    ...init,
  });

/** Starts a call and waits until its request has gone out: its answer to come, and the request. */
async function started(send: ReturnType<typeof xhrFetch>, init?: RequestInit) {
  FakeXhr.sending = undefined;
  const answer = send(post(init));
  await vi.waitFor(() => expect(FakeXhr.sending).toBeDefined());
  return { answer, xhr: FakeXhr.sending! };
}

describe('xhrFetch', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.sending = undefined;
  });

  it('sends the request as fetch would, reports the bytes gone out, and answers a Response', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const seen: number[] = [];
    const { answer, xhr } = await started(xhrFetch((f) => seen.push(f)));
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('http://api.test/api/storage/upload');
    expect(xhr.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer t',
    });
    expect(xhr.body).toBe('{"data":"AAAA"}');

    xhr.progress(0, 0); // no length known yet: nothing to report
    xhr.progress(16_384, 65_536);
    xhr.progress(65_536, 65_536);
    xhr.answer(
      200,
      '{"status":"OK","body":{"keyName":"k"}}',
      'content-type: application/json\r\nx-request-id: r-1\r\n',
    );
    const res = await answer;
    expect(seen).toEqual([0.25, 1, 1]);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('r-1');
    expect(await res.json()).toEqual({ status: 'OK', body: { keyName: 'k' } });
  });

  it('answers an NG status as a Response, fails like fetch without an answer, and aborts with the signal', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const send = xhrFetch(() => undefined);

    const ng = await started(send);
    ng.xhr.answer(413, '{"status":"NG"}', '');
    expect((await ng.answer).status).toBe(413);

    const offline = await started(send);
    offline.xhr.emit('error');
    await expect(offline.answer).rejects.toBeInstanceOf(TypeError);

    const stop = new AbortController();
    const aborted = await started(send, { signal: stop.signal });
    stop.abort();
    await expect(aborted.answer).rejects.toMatchObject({ name: 'AbortError' });

    // Aborted before it started: nothing is sent.
    FakeXhr.sending = undefined;
    const early = new AbortController();
    early.abort();
    await expect(send(post({ signal: early.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(FakeXhr.sending).toBeUndefined();
  });

  it('answers a status without a body (204) with an empty Response, and never hangs on one no Response can carry', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const send = xhrFetch(() => undefined);
    const noContent = await started(send);
    noContent.xhr.answer(204, '', '');
    const res = await noContent.answer;
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();

    const odd = await started(send);
    odd.xhr.answer(0, '', '');
    await expect(odd.answer).rejects.toBeInstanceOf(TypeError);
  });
});
