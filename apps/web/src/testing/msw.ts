import {
  ERRORS,
  type ErrorCode,
  type NgEnvelope,
  type OkEnvelopeOf,
} from '@proam/contract';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ApiError } from '@/lib/api-error';

/**
 * The one stub of the API for the web tests: an MSW server, started and reset
 * around every test by setup-tests.ts. Every call is `POST /api<path>` with a
 * JSON body (docs/api.md, Transport); tests name the path without `/api`.
 */
export const server = setupServer();

/** One call the stubbed API received: its path without `/api`, and its JSON body. */
export type ApiCall = {
  path: string;
  body: Record<string, unknown>;
  request: Request;
};

/** Every call made in the current test, in order (unanswered ones too). */
export const apiCalls: ApiCall[] = [];

const pathOf = (request: Request) =>
  new URL(request.url).pathname.replace(/^\/api/, '');

server.events.on('request:start', ({ request }) => {
  const copy = request.clone();
  const call: ApiCall = { path: pathOf(request), body: {}, request: copy };
  apiCalls.push(call);
  void request
    .clone()
    .text()
    .then((text) => {
      call.body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    })
    .catch(() => undefined);
});

export const resetApi = () => {
  server.resetHandlers();
  apiCalls.length = 0;
};

/** The paths called so far, in order. */
export const pathsCalled = () => apiCalls.map((c) => c.path);

/** The JSON bodies of the calls to `path` so far, in order. */
export const bodiesOf = (path: string) =>
  apiCalls.filter((c) => c.path === path).map((c) => c.body);

/** The JSON body of the n-th call, or of the first call to `path`. */
export const bodyOf = async (which: number | string) => {
  const call =
    typeof which === 'number'
      ? apiCalls[which]
      : apiCalls.find((c) => c.path === which);
  if (!call) throw new Error(`no API call ${String(which)}`);
  return (await call.request.clone().json()) as Record<string, unknown>;
};

/** The n-th request itself (method, URL, headers). */
export const requestAt = (n: number) => {
  const call = apiCalls[n];
  if (!call) throw new Error(`no API call ${n}`);
  return call.request.clone();
};

/** An OK envelope with `body`. */
export const ok = <T>(body: T, init?: ResponseInit) =>
  HttpResponse.json<OkEnvelopeOf<T>>(
    { status: 'OK', reqId: 'req-ok', body },
    init,
  );

type NgOptions = { msg?: string; reqId?: string; status?: number };

/** The ApiError the client makes of `ng(code, options)`, for code that takes one directly. */
export const apiError = (
  code: ErrorCode,
  {
    msg = ERRORS[code].msg,
    reqId = 'r',
    status = ERRORS[code].http,
  }: NgOptions = {},
): ApiError => ({ status: 'NG', code, reqId, msg, httpStatus: status });

/** An NG envelope for `code`, with the catalogue's HTTP status and message unless given. */
export const ng = (code: ErrorCode, options: NgOptions = {}) => {
  const { httpStatus, ...envelope } = apiError(code, options);
  return HttpResponse.json<NgEnvelope>(
    { ...envelope, code },
    { status: httpStatus },
  );
};

/** A failed connection, as fetch rejects it (TypeError). */
export const networkError = () => HttpResponse.error();

type Reply = Response | Promise<Response>;
/** Answers one call: its parsed JSON body and the request. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route knows its body
export type Route = (body: any, request: Request) => Reply;

const readBody = async (request: Request) => {
  const text = await request.clone().text();
  return text ? (JSON.parse(text) as unknown) : {};
};

/**
 * Serves the listed paths; any other path gets `otherwise` (default: the NG
 * `NotFound`). Later calls to serveApi take precedence for the paths they list.
 */
export const serveApi = (
  routes: Record<string, Route>,
  otherwise: Route = () => ng('NotFound'),
) =>
  server.use(
    http.post('*/api/*', async ({ request }) => {
      const route = routes[pathOf(request)] ?? otherwise;
      return route(await readBody(request), request);
    }),
  );

/**
 * Like serveApi, each route giving the body of an OK envelope; other paths
 * fail the call unless `otherwise` answers them.
 */
export const serveOk = (
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route knows its body
  routes: Record<string, (body: any, request: Request) => unknown>,
  otherwise?: Route,
) =>
  serveApi(
    Object.fromEntries(
      Object.entries(routes).map(([path, route]) => [
        path,
        (body: unknown, request: Request) => ok(route(body, request)),
      ]),
    ),
    otherwise ??
      ((_, request) => {
        throw new Error(`unexpected call ${pathOf(request)}`);
      }),
  );

/** The calls so far as path and body, for comparing whole. */
export const sentCalls = () =>
  apiCalls.map(({ path, body }) => ({ path, body }));

/** Every call, whatever its path, gets `route`. */
export const serveAll = (route: Route) => serveApi({}, route);

/** The next call (to any path) gets `route`, before what is served otherwise. */
export const answerOnce = (route: Route) =>
  server.use(
    http.post(
      '*/api/*',
      async ({ request }) => route(await readBody(request), request),
      { once: true },
    ),
  );

/** The n-th call (to any path) gets the n-th route; calls past the last get `NotFound`. */
export const serveInOrder = (...routes: Route[]) => {
  let next = 0;
  serveAll((body, request) =>
    (routes[next++] ?? (() => ng('NotFound')))(body, request),
  );
};

/** A reply held until `release` is called: for what happens while a call is in flight. */
export const deferred = () => {
  let release: (response: Response) => void = () => undefined;
  const reply = new Promise<Response>((resolve) => (release = resolve));
  return {
    reply: () => reply,
    release: (response: Response) => release(response),
  };
};
