import { describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import {
  answerOnce,
  apiCalls,
  bodyOf,
  deferred,
  networkError,
  ng,
  ok,
  requestAt,
  serveAll,
} from '@/testing/msw';
import { probeApi } from '@/testing/probe-api';
import { withUploadProgress } from '../api';
import type { ApiError } from '../api-error';
import { selectCurrentAlert, selectSpinnerVisible } from '../ui-slice';

const call = async (body: unknown = { size: 3 }) => {
  const store = makeStore();
  const result = await store.dispatch(
    probeApi.endpoints.probeQuery.initiate({ path: '/news/readAll', body }),
  );
  return { store, result };
};

describe('apiBaseQuery', () => {
  it('POSTs the JSON body to /api<path> and yields the envelope body', async () => {
    serveAll(() => ok([{ id: 'n1' }]));
    const { store, result } = await call({ page: 1, size: 3 });
    expect(result.data).toEqual([{ id: 'n1' }]);
    const request = requestAt(0);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/news/readAll');
    expect(await bodyOf(0)).toEqual({ page: 1, size: 3 });
    expect(selectCurrentAlert(store.getState())).toBeNull();
    expect(selectSpinnerVisible(store.getState())).toBe(false);
  });

  it('sends a watched body the same way, reporting the share of it sent (XMLHttpRequest)', async () => {
    serveAll(() => ok({ keyName: 'users/u-1/a.jpg' }));
    const seen: number[] = [];
    const body = withUploadProgress({ data: 'AAAA' }, (f) => seen.push(f));
    const { store, result } = await call(body);
    expect(result.data).toEqual({ keyName: 'users/u-1/a.jpg' });
    // The fake network sends the whole body at once: 1, reported with the answer.
    expect(seen.at(-1)).toBe(1);
    expect(new URL(requestAt(0).url).pathname).toBe('/api/news/readAll');
    expect(await bodyOf(0)).toEqual({ data: 'AAAA' });
    expect(selectSpinnerVisible(store.getState())).toBe(false);
    // Another body is sent by fetch, unwatched.
    await call({ data: 'BBBB' });
    expect(seen.filter((f) => f === 1)).toHaveLength(seen.length);
  });

  it('yields an NG envelope from a 400 as the error value and raises the エラー alert', async () => {
    serveAll(() =>
      ng('ValidationError', {
        reqId: 'req-1',
        msg: '入力内容に誤りがあります。（size）',
      }),
    );
    const { store, result } = await call({ size: 999 });
    const error = result.error as ApiError;
    expect(error).toEqual({
      status: 'NG',
      code: 'ValidationError',
      reqId: 'req-1',
      msg: '入力内容に誤りがあります。（size）',
      httpStatus: 400,
    });
    expect(selectCurrentAlert(store.getState())).toEqual({
      kind: 'error',
      code: 'ValidationError',
      reqId: 'req-1',
      msg: '入力内容に誤りがあります。（size）',
    });
    expect(selectSpinnerVisible(store.getState())).toBe(false);
  });

  it.each([
    [
      'a non-JSON HTTP 500 into an InternalError NG with the request id header',
      () =>
        new Response('<html>Bad gateway</html>', {
          status: 500,
          headers: { 'content-type': 'text/html', 'x-request-id': 'req-500' },
        }),
      {
        code: 'InternalError',
        reqId: 'req-500',
        msg: 'サーバーでエラーが発生しました。時間をおいて再度お試しください。',
        httpStatus: 500,
      },
    ],
    [
      'a network failure into NetworkError without throwing',
      networkError,
      {
        code: 'NetworkError',
        reqId: '',
        msg: '通信に失敗しました。通信環境をご確認ください。',
        httpStatus: 0,
      },
    ],
  ])('turns %s', async (_, reply, error) => {
    serveAll(reply);
    const { store, result } = await call();
    expect(result.error).toEqual({ status: 'NG', ...error });
    expect(selectCurrentAlert(store.getState())).toMatchObject({
      kind: 'error',
      code: error.code,
      msg: error.msg,
    });
    expect(selectSpinnerVisible(store.getState())).toBe(false);
  });

  it('shows the re-login alert, not the エラー alert, for InvalidRefreshToken', async () => {
    serveAll(() => ng('InvalidRefreshToken', { reqId: 'req-2' }));
    const { store } = await call();
    expect(selectCurrentAlert(store.getState())).toEqual({
      kind: 'relogin',
      msg: '一定期間ご利用がなかったため、ログインの有効期限が切れました。再度ログインしてください。',
    });
  });

  it('keeps the spinner up while any call is in flight', async () => {
    const slowReply = deferred();
    serveAll(() => ok([]));
    answerOnce(slowReply.reply);
    const store = makeStore();
    const slow = store.dispatch(
      probeApi.endpoints.probeQuery.initiate({ path: '/a' }),
    );
    const fast = store.dispatch(
      probeApi.endpoints.probeQuery.initiate({ path: '/b' }),
    );
    await vi.waitFor(() => expect(apiCalls).toHaveLength(2));
    await fast;
    expect(selectSpinnerVisible(store.getState())).toBe(true);
    slowReply.release(ok([]));
    await slow;
    expect(selectSpinnerVisible(store.getState())).toBe(false);
  });
});
