import { createAction } from '@reduxjs/toolkit';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { ERRORS, type ErrorCode } from '@proam/contract';
import { resolveApiBase } from '@/config/env';
import {
  INVALID_RESPONSE_MSG,
  NETWORK_ERROR_MSG,
  isApiError,
  type ApiError,
} from './api-error';
import {
  errorAlertRaised,
  reloginAlertRaised,
  requestFinished,
  requestStarted,
} from './ui-slice';

/** Every call is `POST {apiBase}{path}` with a JSON body (spec/API.md, Transport). */
export type ApiRequest = { path: string; body?: unknown; silent?: boolean };

/**
 * Declared here rather than in an auth feature so lib never imports features:
 * the auth slice reacts to it in extraReducers.
 */
export const sessionExpired = createAction('session/expired');

/**
 * Extension points for the auth feature. Keeping them as hooks lets that feature
 * add tokens and a single-flight refresh without this file knowing about tokens.
 */
export type AuthHooks = {
  /** Adds the Authorization header; may refresh an expired access token first. */
  prepareHeaders?: (
    headers: Headers,
    api: { getState: () => unknown; endpoint: string },
  ) => void | Promise<void>;
  /** Runs after an InvalidAccessToken answer; resolve true to retry the call once. */
  refreshAfterInvalidAccessToken?: (api: BaseQueryApi) => Promise<boolean>;
};

let authHooks: AuthHooks = {};
export const registerAuthHooks = (hooks: AuthHooks): void => {
  authHooks = hooks;
};

const codeForHttpStatus = (status: number): ErrorCode => {
  const match = (Object.keys(ERRORS) as ErrorCode[]).find(
    (c) => ERRORS[c].http === status,
  );
  return match ?? 'InternalError';
};

const requestIdOf = (meta: FetchBaseQueryMeta | undefined): string =>
  meta?.response?.headers.get('x-request-id') ?? '';

const fromHttpStatus = (status: number, reqId: string): ApiError => {
  const code = status >= 200 && status < 300 ? null : codeForHttpStatus(status);
  return code
    ? { status: 'NG', code, reqId, msg: ERRORS[code].msg, httpStatus: status }
    : {
        status: 'NG',
        code: 'InvalidResponse',
        reqId,
        msg: INVALID_RESPONSE_MSG,
        httpStatus: status,
      };
};

/** Turns whatever fetchBaseQuery produced into the NG shape of spec/API.md. */
export const normaliseError = (
  error: FetchBaseQueryError,
  meta: FetchBaseQueryMeta | undefined,
): ApiError => {
  const reqId = requestIdOf(meta);
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
    return {
      status: 'NG',
      code: 'NetworkError',
      reqId,
      msg: NETWORK_ERROR_MSG,
      httpStatus: 0,
    };
  }
  if (error.status === 'PARSING_ERROR')
    return fromHttpStatus(error.originalStatus, reqId);
  if (error.status === 'CUSTOM_ERROR') {
    return {
      status: 'NG',
      code: 'InvalidResponse',
      reqId,
      msg: INVALID_RESPONSE_MSG,
      httpStatus: 0,
    };
  }
  if (isApiError(error.data)) {
    return {
      ...error.data,
      reqId: error.data.reqId || reqId,
      httpStatus: error.status,
    };
  }
  return fromHttpStatus(error.status, reqId);
};

type Outcome =
  { data: unknown; error?: undefined } | { error: ApiError; data?: undefined };

const rawQuery = fetchBaseQuery({
  baseUrl: resolveApiBase(),
  prepareHeaders: async (headers, api) => {
    headers.set('Accept', 'application/json');
    await authHooks.prepareHeaders?.(headers, api);
    return headers;
  },
});

const runOnce = async (
  args: ApiRequest,
  api: BaseQueryApi,
  extra: object,
): Promise<Outcome> => {
  let result;
  try {
    result = await rawQuery(
      { url: args.path, method: 'POST', body: args.body ?? {} },
      api,
      extra,
    );
  } catch {
    // fetchBaseQuery catches fetch failures itself; this guards the hooks.
    return {
      error: {
        status: 'NG',
        code: 'NetworkError',
        reqId: '',
        msg: NETWORK_ERROR_MSG,
        httpStatus: 0,
      },
    };
  }
  if (result.error) return { error: normaliseError(result.error, result.meta) };
  const payload: unknown = result.data;
  const httpStatus = result.meta?.response?.status ?? 200;
  if (isApiError(payload)) return { error: { ...payload, httpStatus } };
  if (
    typeof payload === 'object' &&
    payload !== null &&
    (payload as { status?: unknown }).status === 'OK' &&
    'body' in payload
  ) {
    return { data: (payload as { body: unknown }).body };
  }
  return { error: fromHttpStatus(httpStatus, requestIdOf(result.meta)) };
};

/**
 * Never throws: every failure comes back as `{ error: ApiError }`, the global
 * spinner counts the call, and NG answers raise the エラー alert (or the
 * re-login alert for InvalidRefreshToken).
 */
export const apiBaseQuery: BaseQueryFn<ApiRequest, unknown, ApiError> = async (
  args,
  api,
  extra,
) => {
  api.dispatch(requestStarted());
  try {
    let outcome = await runOnce(args, api, extra ?? {});
    if (
      outcome.error?.code === 'InvalidAccessToken' &&
      authHooks.refreshAfterInvalidAccessToken &&
      (await authHooks.refreshAfterInvalidAccessToken(api))
    ) {
      outcome = await runOnce(args, api, extra ?? {});
    }
    if (outcome.error) {
      if (outcome.error.code === 'InvalidRefreshToken') {
        api.dispatch(sessionExpired());
        api.dispatch(reloginAlertRaised());
      } else if (!args.silent) {
        api.dispatch(errorAlertRaised(outcome.error));
      }
      return { error: outcome.error };
    }
    return { data: outcome.data };
  } finally {
    api.dispatch(requestFinished());
  }
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery: apiBaseQuery,
  tagTypes: ['News', 'Competition'],
  endpoints: () => ({}),
});
