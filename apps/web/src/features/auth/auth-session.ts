import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { runtimeConfig } from '@/config/env';
import { type AuthHooks, type RenewOutcome, sessionExpired } from '@/lib/api';
import { isApiError, type ApiError } from '@/lib/api-error';
import { errorAlertRaised, reloginAlertRaised } from '@/lib/ui-slice';
import { isAccessTokenFresh } from './access-token';
import { authApi } from './auth-api';
import { tokenCleared, tokenRefreshed, type AuthState } from './auth-slice';
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

/** One renewal per store at a time; everyone who needs a token awaits it. */
const inFlight = new WeakMap<() => unknown, Promise<ApiError | null>>();

/**
 * Exchanges the stored refresh token for a new pair (`/auth/refresh`, or
 * `/auth/handshake` at startup). Parallel callers share one request, because
 * the server rotates the refresh token on every exchange. Resolves null on
 * success, else the failure, which has been shown: the re-login alert for
 * InvalidRefreshToken, otherwise the エラー alert whose OK leads to `#/auth`.
 */
export const renewSession = (
  { dispatch, getState }: StoreApi,
  kind: 'refresh' | 'handshake' = 'refresh',
): Promise<ApiError | null> => {
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
      dispatch(tokenRefreshed(result.data));
      return null;
    }
    const error = asApiError(result.error);
    if (error.code === 'InvalidRefreshToken') {
      dispatch(sessionExpired());
      dispatch(reloginAlertRaised());
    } else {
      dispatch(tokenCleared());
      dispatch(errorAlertRaised({ ...error, redirectTo: '/auth' }));
    }
    return error;
  })().finally(() => inFlight.delete(getState));
  inFlight.set(getState, run);
  return run;
};

const startedStores = new WeakSet<() => unknown>();

/** At startup: run the handshake once when a refresh token is stored. */
export const startSession = (store: StoreApi): void => {
  if (startedStores.has(store.getState)) return;
  startedStores.add(store.getState);
  if (readRefreshToken()) void renewSession(store, 'handshake');
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
    return renewSession(api);
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
