import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore, type AppStore } from '@/app/store';
import { api, type ApiRequest } from '@/lib/api';
import type { ApiError } from '@/lib/api-error';
import { selectCurrentAlert, selectSpinnerVisible } from '@/lib/ui-slice';
import { createLoginResult } from '@/testing/auth';
import { jsonResponse, okEnvelope } from '@/testing/render';
import { authApi } from '../auth-api';
import { startSession } from '../auth-session';
import { tokenReceived } from '../auth-slice';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    protectedProbe: build.mutation<unknown, ApiRequest>({
      query: (args) => args,
    }),
  }),
});

const ng = (code: string, status: number, msg = `${code}のメッセージ`) =>
  jsonResponse({ status: 'NG', code, reqId: `req-${code}`, msg }, { status });

const RELOGIN =
  '一定期間ご利用がなかったため、ログインの有効期限が切れました。再度ログインしてください。';

type Seen = { path: string; authorization: string | null };

/** A fake API: records each request; `/auth/refresh` answers via `refresh`. */
const fakeServer = (handlers: {
  refresh?: () => Response | Promise<Response>;
  probe?: (
    authorization: string | null,
    path: string,
  ) => Response | Promise<Response>;
}) => {
  const seen: Seen[] = [];
  let probes = 0;
  let refreshes = 0;
  const newTokens = createLoginResult({ refreshToken: 'r-2' });
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const request = input as Request;
    const path = new URL(request.url).pathname.replace(/^\/api/, '');
    const authorization = request.headers.get('authorization');
    seen.push({ path, authorization });
    if (path === '/auth/refresh' || path === '/auth/handshake') {
      refreshes += 1;
      // Let every parallel caller arrive before answering.
      await new Promise((r) => setTimeout(r, 20));
      return handlers.refresh ? handlers.refresh() : okEnvelope(newTokens);
    }
    probes += 1;
    return handlers.probe
      ? handlers.probe(authorization, path)
      : authorization === `Bearer ${newTokens.token.accessToken}`
        ? okEnvelope({ ok: true })
        : ng('InvalidAccessToken', 401);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    seen,
    newTokens,
    refreshCount: () => refreshes,
    probeCount: () => probes,
  };
};

/** A store logged in with an access token that expires in `expiresIn` seconds. */
const loggedInStore = (expiresIn: number): AppStore => {
  const store = makeStore();
  store.dispatch(
    tokenReceived(createLoginResult({ expiresIn, refreshToken: 'r-1' })),
  );
  return store;
};

const call = (store: AppStore, path = '/schedule/getActive') =>
  store.dispatch(probeApi.endpoints.protectedProbe.initiate({ path }));

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('re-authenticating base query', () => {
  it('refreshes ONCE for parallel calls with an expired token, then retries each with the new token', async () => {
    const server = fakeServer({});
    const store = loggedInStore(-60);
    const results = await Promise.all([
      call(store, '/a'),
      call(store, '/b'),
      call(store, '/c'),
    ]);
    expect(results.map((r) => r.data)).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
    ]);
    expect(server.refreshCount()).toBe(1);
    const refresh = server.seen.find((s) => s.path === '/auth/refresh');
    expect(refresh?.authorization).toBe('Bearer r-1');
    const bearer = `Bearer ${server.newTokens.token.accessToken}`;
    expect(server.seen.filter((s) => s.path !== '/auth/refresh')).toEqual([
      { path: '/a', authorization: bearer },
      { path: '/b', authorization: bearer },
      { path: '/c', authorization: bearer },
    ]);
    expect(localStorage.getItem('refresh_token')).toBe('r-2');
    expect(store.getState().auth.accessToken).toBe(
      server.newTokens.token.accessToken,
    );
    expect(selectSpinnerVisible(store.getState())).toBe(false);
  });

  it('treats a token within 300 s of expiry as expired', async () => {
    const server = fakeServer({});
    const store = loggedInStore(299);
    expect((await call(store)).data).toEqual({ ok: true });
    expect(server.refreshCount()).toBe(1);
  });

  it('sends a token with more than 300 s left without refreshing', async () => {
    const server = fakeServer({ probe: () => okEnvelope({ ok: true }) });
    const store = loggedInStore(400);
    const token = store.getState().auth.accessToken;
    expect((await call(store)).data).toEqual({ ok: true });
    expect(server.refreshCount()).toBe(0);
    expect(server.seen).toEqual([
      { path: '/schedule/getActive', authorization: `Bearer ${token}` },
    ]);
  });

  it('on InvalidAccessToken refreshes once and retries once', async () => {
    // The server rejects a token the client still thinks is fresh.
    const server = fakeServer({});
    const store = loggedInStore(900);
    const result = await call(store);
    expect(result.data).toEqual({ ok: true });
    expect(server.refreshCount()).toBe(1);
    expect(server.probeCount()).toBe(2);
    expect(selectCurrentAlert(store.getState())).toBeNull();
  });

  it('does not loop when the retried call is rejected again', async () => {
    const server = fakeServer({
      probe: () =>
        ng('InvalidAccessToken', 401, '認証の有効期限が切れました。'),
    });
    const store = loggedInStore(900);
    const result = await call(store);
    expect((result.error as ApiError).code).toBe('InvalidAccessToken');
    expect(server.refreshCount()).toBe(1);
    expect(server.probeCount()).toBe(2);
    expect(selectCurrentAlert(store.getState())).toMatchObject({
      kind: 'error',
      code: 'InvalidAccessToken',
    });
  });

  it('on InvalidRefreshToken shows the re-login alert, clears the login and yields the error', async () => {
    const server = fakeServer({
      refresh: () => ng('InvalidRefreshToken', 401, RELOGIN),
    });
    const store = loggedInStore(-1);
    const pending = Promise.all([call(store, '/a'), call(store, '/b')]);
    await expect(pending).resolves.toBeDefined();
    const [a, b] = await pending;
    expect(a.error).toMatchObject({
      status: 'NG',
      code: 'InvalidRefreshToken',
      msg: RELOGIN,
    });
    expect(b.error).toMatchObject({ code: 'InvalidRefreshToken' });
    expect(server.refreshCount()).toBe(1);
    // The calls that waited for the refresh never went out without a token.
    expect(server.probeCount()).toBe(0);
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(store.getState().auth).toMatchObject({
      accessToken: null,
      user: null,
      status: 'anonymous',
    });
    expect(store.getState().ui.alerts).toEqual([
      { kind: 'relogin', msg: RELOGIN },
    ]);
  });

  it('on any other refresh failure clears the login and shows the エラー alert leading to #/auth', async () => {
    fakeServer({
      refresh: () =>
        ng('InternalError', 500, 'サーバーでエラーが発生しました。'),
    });
    const store = loggedInStore(-1);
    const result = await call(store);
    expect(result.error).toMatchObject({ code: 'InternalError' });
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(store.getState().auth.status).toBe('anonymous');
    expect(store.getState().ui.alerts).toEqual([
      {
        kind: 'error',
        code: 'InternalError',
        msg: 'サーバーでエラーが発生しました。',
        reqId: 'req-InternalError',
        redirectTo: '/auth',
      },
    ]);
  });

  it('treats a network failure of the refresh like any other failure, without throwing', async () => {
    const fetchMock = vi.fn<typeof fetch>(() =>
      Promise.reject(new TypeError('Failed to fetch')),
    );
    vi.stubGlobal('fetch', fetchMock);
    const store = loggedInStore(-1);
    const result = await call(store);
    expect(result.error).toMatchObject({ code: 'NetworkError' });
    expect(store.getState().ui.alerts).toMatchObject([
      { kind: 'error', code: 'NetworkError', redirectTo: '/auth' },
    ]);
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('sends calls without a token when nobody is logged in', async () => {
    const server = fakeServer({ probe: () => okEnvelope([]) });
    const store = makeStore();
    await call(store, '/competition/read');
    expect(server.seen).toEqual([
      { path: '/competition/read', authorization: null },
    ]);
  });
});

describe('auth calls', () => {
  it('login sends the Basic client credentials and stores the answer', async () => {
    const result = createLoginResult({ refreshToken: 'r-login' });
    const fetchMock = vi.fn<typeof fetch>(async () => okEnvelope(result));
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();
    await store.dispatch(
      authApi.endpoints.login.initiate({
        mail: 'ama1@example.jp',
        password: 'secret-123',
      }),
    );
    const request = fetchMock.mock.calls[0]?.[0] as Request;
    expect(new URL(request.url).pathname).toBe('/api/auth/login');
    expect(request.headers.get('authorization')).toBe(
      `Basic ${btoa('web:proam-web-dev')}`,
    );
    expect(await request.json()).toEqual({
      mail: 'ama1@example.jp',
      password: 'secret-123',
    });
    expect(store.getState().auth.status).toBe('authenticated');
    expect(localStorage.getItem('refresh_token')).toBe('r-login');
  });

  it('registration and code calls carry no Authorization header', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () =>
      okEnvelope({ sent: true }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const store = loggedInStore(900);
    await store.dispatch(
      authApi.endpoints.sendCode.initiate({ email: 'new@example.jp' }),
    );
    const request = fetchMock.mock.calls[0]?.[0] as Request;
    expect(request.headers.get('authorization')).toBeNull();
  });

  it('the startup handshake runs once, with the stored refresh token', async () => {
    localStorage.setItem('refresh_token', 'r-stored');
    const server = fakeServer({});
    const store = makeStore();
    expect(store.getState().auth.status).toBe('restoring');
    startSession(store);
    startSession(store);
    // A call made meanwhile waits for the handshake instead of refreshing again.
    const result = await call(store);
    expect(result.data).toEqual({ ok: true });
    expect(server.seen.map((s) => s.path)).toEqual([
      '/auth/handshake',
      '/schedule/getActive',
    ]);
    expect(server.seen[0]?.authorization).toBe('Bearer r-stored');
    expect(store.getState().auth.status).toBe('authenticated');
    expect(localStorage.getItem('refresh_token')).toBe('r-2');
  });

  it('does nothing at startup without a stored refresh token', () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();
    startSession(store);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(store.getState().auth.status).toBe('anonymous');
  });

  it('retries without another refresh when a parallel call renewed the token meanwhile', async () => {
    const server = fakeServer({
      probe: async (authorization, path) => {
        // '/b' is answered only after '/a' has finished its refresh.
        if (path === '/b') await new Promise((r) => setTimeout(r, 80));
        return authorization === `Bearer ${server.newTokens.token.accessToken}`
          ? okEnvelope({ path })
          : ng('InvalidAccessToken', 401);
      },
    });
    const store = loggedInStore(900);
    const [a, b] = await Promise.all([call(store, '/a'), call(store, '/b')]);
    expect(a.data).toEqual({ path: '/a' });
    expect(b.data).toEqual({ path: '/b' });
    expect(server.refreshCount()).toBe(1);
    expect(server.probeCount()).toBe(4);
  });
});
