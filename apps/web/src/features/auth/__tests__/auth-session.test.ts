import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore, type AppStore } from '@/app/store';
import type { ApiError } from '@/lib/api-error';
import {
  alertDismissed,
  selectCurrentAlert,
  selectSpinnerVisible,
} from '@/lib/ui-slice';
import { createLoginResult } from '@/testing/auth';
import { probeApi } from '@/testing/probe-api';
import { jsonResponse, okEnvelope } from '@/testing/render';
import { authApi } from '../auth-api';
import {
  RETRY_BASE_MS,
  RETRY_MAX_MS,
  retryDelayMs,
  retryRenewalNow,
  startSession,
} from '../auth-session';
import {
  loggedOut,
  selectConnectionProblem,
  selectHoldsLogin,
  tokenReceived,
} from '../auth-slice';

/**
 * Stores whose renewal may still be scheduled for a retry, and the watchers
 * startSession set up: both end with their test.
 */
const tracked: AppStore[] = [];
const stops: (() => void)[] = [];
const track = (store: AppStore): AppStore => {
  tracked.push(store);
  return store;
};

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

/** fakeServer refusing every renewal with a 503 until `recover()`, then renewing. */
const renewalUnavailableUntilRecovered = () => {
  let unavailable = true;
  const server = fakeServer({
    refresh: () =>
      unavailable
        ? ng('ServiceUnavailable', 503)
        : okEnvelope(server.newTokens),
  });
  return {
    ...server,
    recover: () => {
      unavailable = false;
    },
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
  store.dispatch(probeApi.endpoints.probeMutation.initiate({ path }));

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  // Logged out, a store has no renewal left to retry.
  for (const store of tracked.splice(0)) store.dispatch(loggedOut());
  vi.useRealTimers();
  vi.restoreAllMocks();
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

  it.each([
    ['503 ServiceUnavailable', 'ServiceUnavailable', 503],
    ['500 InternalError', 'InternalError', 500],
    ['429 RateLimited', 'RateLimited', 429],
  ])(
    'a %s on refresh keeps the login (token, user, status) without an alert and marks the server unavailable',
    async (_name, code, status) => {
      const server = fakeServer({ refresh: () => ng(code, status) });
      const store = track(loggedInStore(-1));
      const user = store.getState().auth.user;
      const result = await call(store);
      expect(result.error).toMatchObject({ code });
      expect(server.probeCount()).toBe(0);
      expect(localStorage.getItem('refresh_token')).toBe('r-1');
      expect(store.getState().auth).toMatchObject({
        status: 'authenticated',
        user,
        renewalProblem: 'unavailable',
      });
      expect(selectConnectionProblem(store.getState())).toBe('unavailable');
      expect(store.getState().ui.alerts).toEqual([]);
    },
  );

  it('a network failure of the refresh keeps the login and marks it offline, without throwing', async () => {
    const fetchMock = vi.fn<typeof fetch>(() =>
      Promise.reject(new TypeError('Failed to fetch')),
    );
    vi.stubGlobal('fetch', fetchMock);
    const store = track(loggedInStore(-1));
    const result = await call(store);
    expect(result.error).toMatchObject({ code: 'NetworkError' });
    expect(store.getState().ui.alerts).toEqual([]);
    expect(localStorage.getItem('refresh_token')).toBe('r-1');
    expect(store.getState().auth).toMatchObject({
      status: 'authenticated',
      renewalProblem: 'offline',
    });
    expect(selectConnectionProblem(store.getState())).toBe('offline');
  });

  it('after a passing failure, the next renewal restores the session and clears the notice', async () => {
    const server = renewalUnavailableUntilRecovered();
    const store = track(loggedInStore(-1));
    await call(store);
    expect(store.getState().auth.renewalProblem).toBe('unavailable');
    server.recover();
    expect(await retryRenewalNow(store)).toBeNull();
    expect(store.getState().auth).toMatchObject({
      status: 'authenticated',
      renewalProblem: null,
      accessToken: server.newTokens.token.accessToken,
    });
    expect(localStorage.getItem('refresh_token')).toBe('r-2');
    expect(selectConnectionProblem(store.getState())).toBeNull();
    expect((await call(store)).data).toEqual({ ok: true });
  });

  it('retries a failed renewal by itself with a backoff (2 s, then 4 s, …)', async () => {
    vi.useFakeTimers();
    const answers = [
      () => ng('ServiceUnavailable', 503),
      () => ng('ServiceUnavailable', 503),
      () => okEnvelope(createLoginResult({ refreshToken: 'r-3' })),
    ];
    let refreshes = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => answers[refreshes++]!()),
    );
    const store = track(loggedInStore(-1));
    await call(store);
    expect(refreshes).toBe(1);
    // At most 2.4 s (2 s + 20 % jitter) later: the second try, at most 4.8 s after that the third.
    await vi.advanceTimersByTimeAsync(retryDelayMs(0, () => 1));
    expect(refreshes).toBe(2);
    expect(store.getState().auth.renewalProblem).toBe('unavailable');
    await vi.advanceTimersByTimeAsync(retryDelayMs(1, () => 1));
    expect(refreshes).toBe(3);
    expect(store.getState().auth.renewalProblem).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBe('r-3');
    // Nothing more is scheduled once the session is back.
    await vi.advanceTimersByTimeAsync(RETRY_MAX_MS * 2);
    expect(refreshes).toBe(3);
  });

  it('spaces retries from 2 s up to at most 60 s, with jitter', () => {
    expect(retryDelayMs(0, () => 0.5)).toBe(RETRY_BASE_MS);
    expect(retryDelayMs(1, () => 0.5)).toBe(4_000);
    expect(retryDelayMs(10, () => 0.5)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(0, () => 0)).toBe(1_600);
    expect(retryDelayMs(0, () => 1)).toBe(2_400);
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

describe('offline and back', () => {
  const failedFetch = () => Promise.reject(new TypeError('Failed to fetch'));

  it('without a network at startup the stored login waits (reconnecting), and the online event restores it', async () => {
    localStorage.setItem('refresh_token', 'r-stored');
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let offline = true;
    const server = fakeServer({
      refresh: () => (offline ? failedFetch() : okEnvelope(server.newTokens)),
    });
    const store = track(makeStore());
    stops.push(startSession(store));
    await vi.waitFor(() =>
      expect(store.getState().auth.status).toBe('reconnecting'),
    );
    expect(store.getState().auth).toMatchObject({
      user: null,
      renewalProblem: 'offline',
      browserOnline: false,
    });
    expect(localStorage.getItem('refresh_token')).toBe('r-stored');
    expect(selectHoldsLogin(store.getState())).toBe(true);
    expect(selectConnectionProblem(store.getState())).toBe('offline');
    expect(store.getState().ui.alerts).toEqual([]);

    offline = false;
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() =>
      expect(store.getState().auth.status).toBe('authenticated'),
    );
    expect(server.seen).toEqual([
      { path: '/auth/handshake', authorization: 'Bearer r-stored' },
      { path: '/auth/handshake', authorization: 'Bearer r-stored' },
    ]);
    expect(store.getState().auth.user).toEqual(server.newTokens.user);
    expect(localStorage.getItem('refresh_token')).toBe('r-2');
    expect(selectConnectionProblem(store.getState())).toBeNull();
  });

  it('the offline and online events alone show and clear the offline notice', async () => {
    fakeServer({});
    const store = track(loggedInStore(900));
    stops.push(startSession(store));
    // The startup handshake (a refresh token is stored) has answered.
    await vi.waitFor(() =>
      expect(localStorage.getItem('refresh_token')).toBe('r-2'),
    );
    expect(selectConnectionProblem(store.getState())).toBeNull();
    window.dispatchEvent(new Event('offline'));
    expect(selectConnectionProblem(store.getState())).toBe('offline');
    window.dispatchEvent(new Event('online'));
    expect(selectConnectionProblem(store.getState())).toBeNull();
    expect(store.getState().auth.status).toBe('authenticated');
  });

  it('a 503 for the startup handshake keeps the stored login; the retry restores it', async () => {
    localStorage.setItem('refresh_token', 'r-stored');
    const server = renewalUnavailableUntilRecovered();
    const store = track(makeStore());
    stops.push(startSession(store));
    await vi.waitFor(() =>
      expect(store.getState().auth.status).toBe('reconnecting'),
    );
    expect(store.getState().auth.renewalProblem).toBe('unavailable');
    expect(localStorage.getItem('refresh_token')).toBe('r-stored');
    expect(store.getState().ui.alerts).toEqual([]);
    server.recover();
    expect(await retryRenewalNow(store)).toBeNull();
    expect(store.getState().auth.status).toBe('authenticated');
  });

  it('queries that failed meanwhile load again once the session is back', async () => {
    const server = renewalUnavailableUntilRecovered();
    const store = track(loggedInStore(-1));
    stops.push(startSession(store));
    const subscription = store.dispatch(
      probeApi.endpoints.probeQuery.initiate({ path: '/schedule/getActive' }),
    );
    const selectProbe = probeApi.endpoints.probeQuery.select({
      path: '/schedule/getActive',
    });
    await vi.waitFor(() =>
      expect(selectProbe(store.getState()).isError).toBe(true),
    );
    expect(server.probeCount()).toBe(0);
    server.recover();
    await retryRenewalNow(store);
    await vi.waitFor(() =>
      expect(selectProbe(store.getState()).data).toEqual({ ok: true }),
    );
    expect(server.probeCount()).toBe(1);
    subscription.unsubscribe();
  });

  it('a call failing for want of a network shows the エラー alert only while the browser says it is online', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(failedFetch));
    const store = track(loggedInStore(900));
    await call(store);
    expect(store.getState().ui.alerts).toMatchObject([
      { kind: 'error', code: 'NetworkError' },
    ]);
    store.dispatch(alertDismissed());
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const result = await call(store);
    expect(result.error).toMatchObject({ code: 'NetworkError' });
    expect(store.getState().ui.alerts).toEqual([]);
    expect(store.getState().auth.status).toBe('authenticated');
  });

  it('InvalidRefreshToken still ends the login, whatever came before', async () => {
    let invalid = false;
    fakeServer({
      refresh: () =>
        invalid
          ? ng('InvalidRefreshToken', 401, RELOGIN)
          : ng('ServiceUnavailable', 503),
    });
    const store = track(loggedInStore(-1));
    await call(store);
    expect(localStorage.getItem('refresh_token')).toBe('r-1');
    invalid = true;
    await retryRenewalNow(store);
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(store.getState().auth).toMatchObject({
      status: 'anonymous',
      user: null,
      renewalProblem: null,
    });
    expect(store.getState().ui.alerts).toEqual([
      { kind: 'relogin', msg: RELOGIN },
    ]);
  });
});
