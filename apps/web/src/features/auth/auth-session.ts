import type { UnknownAction } from '@reduxjs/toolkit';
import { setupListeners, type BaseQueryApi } from '@reduxjs/toolkit/query';
import { runtimeConfig } from '@/config/env';
import { type AuthHooks, type RenewOutcome, sessionExpired } from '@/lib/api';
import { isApiError, type ApiError } from '@/lib/api-error';
import { reloginAlertRaised } from '@/lib/ui-slice';
import { isAccessTokenFresh } from './access-token';
import { authApi } from './auth-api';
import {
  connectivityChanged,
  renewalFailed,
  tokenRefreshed,
  type AuthState,
  type RenewalProblem,
} from './auth-slice';
import { readRefreshToken } from './token-storage';

type StoreApi = Pick<BaseQueryApi, 'dispatch' | 'getState'>;

const authOf = (getState: () => unknown): AuthState =>
  (getState() as { auth: AuthState }).auth;

const asApiError = (error: unknown): ApiError =>
  isApiError(error)
    ? error
    : {
        status: 'NG',
        code: 'InternalError',
        reqId: '',
        msg: 'サーバーでエラーが発生しました。時間をおいて再度お試しください。',
        httpStatus: 0,
      };

const browserOnline = (): boolean =>
  typeof navigator === 'undefined' || navigator.onLine !== false;

/**
 * Every failure but InvalidRefreshToken leaves the login as it is: no network
 * or a timeout (`offline`), a 5xx such as 503 ServiceUnavailable, a 429, an
 * answer that could not be read (`unavailable`). None of them says the login
 * has ended, and clearing it logged members out whenever they opened the app
 * without a signal.
 */
const problemOf = (error: ApiError): RenewalProblem =>
  error.code === 'NetworkError' || !browserOnline() ? 'offline' : 'unavailable';

/** Retries of a renewal that failed for a passing reason: 2 s, 4 s, 8 s … at most 60 s. */
export const RETRY_BASE_MS = 2_000;
export const RETRY_MAX_MS = 60_000;

/** The wait before retry number `attempt` (from 0), with ±20 % jitter. */
export const retryDelayMs = (attempt: number, random = Math.random): number =>
  Math.round(
    Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempt) *
      (0.8 + 0.4 * random()),
  );

type RetryState = {
  attempt: number;
  timer: ReturnType<typeof setTimeout> | null;
};

/** One renewal per store at a time; everyone who needs a token awaits it. */
const inFlight = new WeakMap<() => unknown, Promise<ApiError | null>>();
const retries = new WeakMap<() => unknown, RetryState>();
/** RTK Query's reconnect action per store: refetches the queries on screen. */
const reconnectActions = new WeakMap<() => unknown, () => UnknownAction>();

const retryOf = (getState: () => unknown): RetryState => {
  let retry = retries.get(getState);
  if (!retry) {
    retry = { attempt: 0, timer: null };
    retries.set(getState, retry);
  }
  return retry;
};

const cancelRetry = (getState: () => unknown, resetAttempts: boolean) => {
  const retry = retries.get(getState);
  if (!retry) return;
  if (retry.timer !== null) clearTimeout(retry.timer);
  retry.timer = null;
  if (resetAttempts) retry.attempt = 0;
};

/** A renewal is worth retrying while a stored login waits for one. */
const awaitingRenewal = (getState: () => unknown): boolean => {
  const { renewalProblem, status } = authOf(getState);
  return (
    renewalProblem !== null &&
    (status === 'authenticated' || status === 'reconnecting') &&
    readRefreshToken() !== null
  );
};

/** The handshake while the user is still unknown (it also reads the server clock). */
const renewalKind = (getState: () => unknown): 'refresh' | 'handshake' =>
  authOf(getState).status === 'authenticated' ? 'refresh' : 'handshake';

const scheduleRetry = (store: StoreApi) => {
  const retry = retryOf(store.getState);
  if (retry.timer !== null) clearTimeout(retry.timer);
  const delay = retryDelayMs(retry.attempt);
  retry.attempt += 1;
  retry.timer = setTimeout(() => {
    retry.timer = null;
    // Without a network the `online` event retries instead (watchConnection).
    if (!browserOnline() || !awaitingRenewal(store.getState)) return;
    void renewSession(store, renewalKind(store.getState));
  }, delay);
};

/**
 * Exchanges the stored refresh token for a new pair (`/auth/refresh`, or
 * `/auth/handshake` at startup). Parallel callers share one request, because
 * the server rotates the refresh token on every exchange. Resolves null on
 * success, else the failure. InvalidRefreshToken ends the login and shows the
 * re-login alert. Any other failure keeps the login: it is marked for the
 * connection notice (no alert) and retried with a backoff and as soon as the
 * browser is back online.
 */
export const renewSession = (
  store: StoreApi,
  kind: 'refresh' | 'handshake' = 'refresh',
): Promise<ApiError | null> => {
  const { dispatch, getState } = store;
  const running = inFlight.get(getState);
  if (running) return running;
  const run = (async (): Promise<ApiError | null> => {
    const request = dispatch(
      kind === 'handshake'
        ? authApi.endpoints.handshake.initiate()
        : authApi.endpoints.refresh.initiate(),
    );
    const result = await request;
    // Drop the cached answer: tokens live in the auth slice only.
    request.reset();
    if (result.data) {
      const recovered = authOf(getState).renewalProblem !== null;
      cancelRetry(getState, true);
      dispatch(tokenRefreshed(result.data));
      // What failed meanwhile loads again, now with a token.
      const reconnect = reconnectActions.get(getState);
      if (recovered && reconnect) dispatch(reconnect());
      return null;
    }
    const error = asApiError(result.error);
    if (error.code === 'InvalidRefreshToken') {
      cancelRetry(getState, true);
      dispatch(sessionExpired());
      dispatch(reloginAlertRaised());
    } else if (readRefreshToken()) {
      dispatch(renewalFailed(problemOf(error)));
      scheduleRetry(store);
    }
    return error;
  })().finally(() => inFlight.delete(getState));
  inFlight.set(getState, run);
  return run;
};

/**
 * Renews at once (the connection notice's 再接続 button, the `online`
 * event), when a renewal is waiting for a retry; starts the backoff afresh.
 */
export const retryRenewalNow = (store: StoreApi): Promise<ApiError | null> => {
  if (!awaitingRenewal(store.getState)) return Promise.resolve(null);
  cancelRetry(store.getState, true);
  return renewSession(store, renewalKind(store.getState));
};

/**
 * Follows the browser's connection: the `offline` and `online` events update
 * the auth slice (the connection notice) and RTK Query. Back online, a
 * renewal that is waiting runs at once, and the queries on screen load again
 * after it; without one they load again straight away.
 */
const watchConnection = (store: StoreApi): (() => void) =>
  setupListeners(store.dispatch, (dispatch, { onOnline, onOffline }) => {
    reconnectActions.set(store.getState, onOnline);
    if (typeof window === 'undefined') return () => undefined;
    dispatch(connectivityChanged(browserOnline()));
    const online = () => {
      dispatch(connectivityChanged(true));
      if (awaitingRenewal(store.getState)) void retryRenewalNow(store);
      else dispatch(onOnline());
    };
    const offline = () => {
      dispatch(connectivityChanged(false));
      dispatch(onOffline());
    };
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      cancelRetry(store.getState, true);
    };
  });

const startedStores = new WeakSet<() => unknown>();

/**
 * At startup: follow the connection, and run the handshake once when a
 * refresh token is stored. Returns what stops the watching (for tests).
 */
export const startSession = (store: StoreApi): (() => void) => {
  if (startedStores.has(store.getState)) return () => undefined;
  startedStores.add(store.getState);
  const stop = watchConnection(store);
  if (readRefreshToken()) void renewSession(store, 'handshake');
  return stop;
};

const basic = (credentials: string): string => {
  const bytes = new TextEncoder().encode(credentials);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
};

/** Wires tokens into every API call; see `AuthHooks` in lib/api.ts. */
export const authHooks: AuthHooks = {
  prepareHeaders: (headers, { getState, auth }) => {
    if (auth === 'client') {
      headers.set('Authorization', basic(runtimeConfig.apiClient));
    } else if (auth === 'refresh') {
      const refreshToken = readRefreshToken();
      if (refreshToken) headers.set('Authorization', `Bearer ${refreshToken}`);
    } else if (auth === 'bearer') {
      const { accessToken } = authOf(getState);
      if (accessToken) headers.set('Authorization', `Bearer ${accessToken}`);
    }
  },

  beforeRequest: async (request, api) => {
    if ((request.auth ?? 'bearer') !== 'bearer') return null;
    const running = inFlight.get(api.getState);
    if (running) return running;
    // No login: the call goes out without a token (public calls).
    if (!readRefreshToken()) return null;
    const { accessTokenExp, serverOffsetMs } = authOf(api.getState);
    if (isAccessTokenFresh(accessTokenExp, serverOffsetMs)) return null;
    return renewSession(api, renewalKind(api.getState));
  },

  refreshAfterInvalidAccessToken: async (
    api,
    sentAuthorization,
  ): Promise<RenewOutcome> => {
    const running = inFlight.get(api.getState);
    if (!running) {
      if (!readRefreshToken()) return { retry: false };
      // Another call renewed the token after this one was sent: just retry.
      const { accessToken } = authOf(api.getState);
      if (accessToken && sentAuthorization !== `Bearer ${accessToken}`)
        return { retry: true };
    }
    const error = await (running ?? renewSession(api));
    return error ? { retry: false, error } : { retry: true };
  },
};
