import { createAction } from '@reduxjs/toolkit';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type EndpointBuilder,
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
import { xhrFetch, type UploadProgress } from './xhr-fetch';

/**
 * Which Authorization a call needs (docs/api.md, Authentication): `bearer`
 * (the default) sends the access token when there is a login, `client` the
 * app's Basic credentials, `refresh` the refresh token, `none` nothing.
 */
export type AuthKind = 'none' | 'client' | 'refresh' | 'bearer';

/** Every call is `POST {apiBase}{path}` with a JSON body (docs/api.md, Transport). */
export type ApiRequest = {
  path: string;
  body?: unknown;
  /** The caller reports failures itself: no エラー or re-login alert. */
  silent?: boolean;
  auth?: AuthKind;
};

/**
 * Declared here rather than in an auth feature so lib never imports features:
 * the auth slice reacts to it in extraReducers.
 */
export const sessionExpired = createAction('session/expired');

/** `retry: false` with an error means the hook already showed it to the person. */
export type RenewOutcome = { retry: boolean; error?: ApiError };

/**
 * Extension points for the auth feature. Keeping them as hooks lets that feature
 * add tokens and a single-flight refresh without this file knowing about tokens.
 */
export type AuthHooks = {
  /** Adds the Authorization header the call's `auth` kind asks for. */
  prepareHeaders?: (
    headers: Headers,
    api: { getState: () => unknown; endpoint: string; auth: AuthKind },
  ) => void;
  /**
   * Runs before each call, e.g. to renew a missing or expiring access token.
   * An error ends the call with that error, which the hook has already shown.
   */
  beforeRequest?: (
    request: ApiRequest,
    api: BaseQueryApi,
  ) => Promise<ApiError | null>;
  /** Runs after an InvalidAccessToken answer; `retry` repeats the call once. */
  refreshAfterInvalidAccessToken?: (
    api: BaseQueryApi,
    sentAuthorization: string | null,
  ) => Promise<RenewOutcome>;
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

/** Turns whatever fetchBaseQuery produced into the NG shape of docs/api.md. */
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

type Outcome = (
  { data: unknown; error?: undefined } | { error: ApiError; data?: undefined }
) & { sentAuthorization?: string | null };

type RawExtraOptions = { auth?: AuthKind };

const rawOptions: Parameters<typeof fetchBaseQuery>[0] = {
  baseUrl: resolveApiBase(),
  prepareHeaders: (headers, api) => {
    headers.set('Accept', 'application/json');
    const { auth = 'bearer' } = (api.extraOptions ?? {}) as RawExtraOptions;
    authHooks.prepareHeaders?.(headers, { ...api, auth });
    return headers;
  },
};
const rawQuery = fetchBaseQuery(rawOptions);

/** The bodies whose sending is watched (withUploadProgress), and who watches. */
const uploadWatchers = new WeakMap<object, UploadProgress>();

/**
 * `body`, sent with its progress reported to `onProgress` (0 to 1) as it
 * goes out: a photo on a phone's slow uplink shows how far it has got. The
 * call is otherwise the same (headers, renewal, errors); the listener stays
 * outside the call's arguments, which the store keeps (plain data only).
 */
export const withUploadProgress = <Body extends object>(
  body: Body,
  onProgress: UploadProgress,
): Body => {
  uploadWatchers.set(body, onProgress);
  return body;
};

const runOnce = async (
  args: ApiRequest,
  api: BaseQueryApi,
): Promise<Outcome> => {
  let result;
  try {
    const extra: RawExtraOptions = { auth: args.auth ?? 'bearer' };
    const watcher =
      typeof args.body === 'object' && args.body !== null
        ? uploadWatchers.get(args.body)
        : undefined;
    const query = watcher
      ? fetchBaseQuery({ ...rawOptions, fetchFn: xhrFetch(watcher) })
      : rawQuery;
    result = await query(
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
  const sentAuthorization =
    result.meta?.request.headers.get('authorization') ?? null;
  if (result.error)
    return {
      error: normaliseError(result.error, result.meta),
      sentAuthorization,
    };
  const payload: unknown = result.data;
  const httpStatus = result.meta?.response?.status ?? 200;
  if (isApiError(payload))
    return { error: { ...payload, httpStatus }, sentAuthorization };
  if (
    typeof payload === 'object' &&
    payload !== null &&
    (payload as { status?: unknown }).status === 'OK' &&
    'body' in payload
  ) {
    return { data: payload.body };
  }
  return {
    error: fromHttpStatus(httpStatus, requestIdOf(result.meta)),
    sentAuthorization,
  };
};

/**
 * A call that failed because the browser has no network: the app's offline
 * notice already says so, and one dialog per call would only be in the way.
 */
const offlineFailure = (error: ApiError): boolean =>
  error.code === 'NetworkError' &&
  typeof navigator !== 'undefined' &&
  navigator.onLine === false;

/**
 * Never throws: every failure comes back as `{ error: ApiError }`, the global
 * spinner counts the call, and NG answers raise the エラー alert (or the
 * re-login alert for InvalidRefreshToken) unless the call is `silent` or
 * failed for want of a network while the browser is offline.
 * An InvalidAccessToken answer renews the session once and retries once.
 */
export const apiBaseQuery: BaseQueryFn<ApiRequest, unknown, ApiError> = async (
  args,
  api,
) => {
  api.dispatch(requestStarted());
  try {
    const stopped = await authHooks.beforeRequest?.(args, api);
    // The hook has shown this failure already (e.g. a refresh that failed).
    if (stopped) return { error: stopped };
    let outcome = await runOnce(args, api);
    if (
      outcome.error?.code === 'InvalidAccessToken' &&
      authHooks.refreshAfterInvalidAccessToken
    ) {
      const renewed = await authHooks.refreshAfterInvalidAccessToken(
        api,
        outcome.sentAuthorization ?? null,
      );
      if (renewed.retry) outcome = await runOnce(args, api);
      else if (renewed.error) return { error: renewed.error };
    }
    if (outcome.error) {
      if (outcome.error.code === 'InvalidRefreshToken') {
        api.dispatch(sessionExpired());
        if (!args.silent) api.dispatch(reloginAlertRaised());
      } else if (!args.silent && !offlineFailure(outcome.error)) {
        api.dispatch(errorAlertRaised(outcome.error));
      }
      return { error: outcome.error };
    }
    return { data: outcome.data };
  } catch {
    // Hooks are not expected to throw; if one does, keep the never-throw promise.
    const error: ApiError = {
      status: 'NG',
      code: 'NetworkError',
      reqId: '',
      msg: NETWORK_ERROR_MSG,
      httpStatus: 0,
    };
    if (!args.silent && !offlineFailure(error))
      api.dispatch(errorAlertRaised(error));
    return { error };
  } finally {
    api.dispatch(requestFinished());
  }
};

/**
 * The `query` of a call that posts its argument as the body, as it is; the
 * options say how it is sent (`silent`, `auth`).
 */
export const postArg =
  (path: string, options: Omit<ApiRequest, 'path' | 'body'> = {}) =>
  (body: unknown): ApiRequest => ({ path, body, ...options });

/**
 * Waits for a call whose change the screen already shows (`patches` of the
 * cache): on the answer runs `answered`, on a failure takes the change back.
 */
export const settleOptimistic = async <Result>(
  queryFulfilled: Promise<{ data: Result }>,
  patches: readonly { undo: () => void }[],
  answered?: (data: Result) => void,
): Promise<void> => {
  try {
    const { data } = await queryFulfilled;
    answered?.(data);
  } catch {
    patches.forEach((p) => p.undo());
  }
};

/**
 * The `infiniteQueryOptions` of a list the API pages by number (`page` from 1,
 * `size` rows): a page shorter than `size` is the last one.
 */
export const numberedPages = (
  size: number,
): {
  initialPageParam: number;
  getNextPageParam: (
    lastPage: readonly unknown[],
    allPages: unknown,
    lastPageParam: number,
  ) => number | undefined;
} => ({
  initialPageParam: 1,
  getNextPageParam: (lastPage, _all, lastPageParam) =>
    lastPage.length < size ? undefined : lastPageParam + 1,
});

// Every tag of every feature, declared once here (features only use them).
const TAG_TYPES = [
  'News',
  'Competition',
  'Contact',
  'User',
  'Like',
  'Schedule',
  'LessonMember',
  'ChatList',
  'Unread',
  'NotificationSettings',
  'MailOutbox',
  'Report',
  'Review',
  'Block',
  'Payment',
  'Refund',
  'Statement',
] as const;
export type ApiTag = (typeof TAG_TYPES)[number];

export const api = createApi({
  reducerPath: 'api',
  baseQuery: apiBaseQuery,
  tagTypes: TAG_TYPES,
  // Queries on screen load again once the connection is back (auth-session.ts
  // dispatches the reconnect after renewing the login, if it had to).
  refetchOnReconnect: true,
  endpoints: () => ({}),
});

/** The `build` a feature's `api.injectEndpoints` hands to its endpoints. */
export type ApiBuilder = EndpointBuilder<typeof apiBaseQuery, ApiTag, 'api'>;

/**
 * The admins' create, update and delete calls of a collection the public
 * pages list (news, competitions): `{base}/create`, `/update` and `/delete`
 * (by id), each refetching every list of `tag`, so those pages show the
 * change without a reload.
 */
export const adminEditEndpoints = <Saved, CreateInput, UpdateInput>(
  build: ApiBuilder,
  base: string,
  tag: ApiTag,
) => ({
  create: build.mutation<Saved, CreateInput>({
    query: postArg(`${base}/create`),
    invalidatesTags: [tag],
  }),
  update: build.mutation<Saved, UpdateInput>({
    query: postArg(`${base}/update`),
    invalidatesTags: [tag],
  }),
  delete: build.mutation<{ deletedCount: number }, string>({
    query: (id) => ({ path: `${base}/delete`, body: { id } }),
    invalidatesTags: [tag],
  }),
});
