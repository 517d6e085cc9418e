import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import type { ErrorCode } from '@proam/contract';
import fp from 'fastify-plugin';
import { ApiError, serviceUnavailable } from '../lib/api-error.js';

/** Fastify's own error codes that are the caller's fault, mapped to the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PayloadTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UnsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'ValidationError',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'ValidationError',
  FST_ERR_CTP_INVALID_JSON_BODY: 'ValidationError',
  FST_ERR_VALIDATION: 'ValidationError',
  FST_ERR_BAD_STATUS_CODE: 'InternalError',
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'ValidationError',
  401: 'InvalidAccessToken',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
};

function classify(err: FastifyError | ApiError): ApiError {
  if (err instanceof ApiError) return err;
  const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (mapped) return new ApiError(mapped);
  if (err.validation) return new ApiError('ValidationError');
  // Plugins (body parser, rate limit, static files) signal caller errors with an HTTP status.
  const status = err.statusCode ?? (err as { status?: number }).status;
  if (status !== undefined && status >= 400 && status < 500)
    return new ApiError(BY_STATUS[status] ?? 'ValidationError');
  if (status === 503) return new ApiError('ServiceUnavailable');
  return new ApiError('InternalError');
}

/**
 * Drizzle puts a failed query's parameters in the error message; they can be
 * addresses or password hashes, so the log keeps the SQL and drops the values.
 */
function redactQueryParams(err: Error): {
  type: string;
  message: string;
  code?: string;
  stack?: string;
} {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const strip = (m: string) =>
    m.replace(/\nparams:[\s\S]*$/, '\nparams: [redacted]');
  return {
    type: err.name,
    message:
      strip(err.message) + (cause?.message ? ` (cause: ${cause.message})` : ''),
    code: (err as { code?: string }).code ?? cause?.code,
    stack: err.stack ? strip(err.stack) : undefined,
  };
}

export function sendNg(
  req: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
) {
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.http)
    .type('application/json; charset=utf-8')
    .send({ status: 'NG', code: error.code, reqId: req.id, msg: error.msg });
}

/**
 * One error handler for the whole server. It never puts the raw error text in
 * the body (Fastify's default leaks `error.message`, docs/security.md §1.4): the
 * detail goes to the log line carrying the same reqId.
 */
function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const apiError = classify(err);
    // A 503 we chose (shedding, a store away) is logged where it is decided, once.
    const chosen =
      err instanceof ApiError && apiError.code === 'ServiceUnavailable';
    if (apiError.http >= 500 && !chosen) {
      req.log.error({ err: redactQueryParams(err) }, 'request failed');
    } else if (!(err instanceof ApiError)) {
      req.log.info({ code: apiError.code, cause: err.code }, 'request refused');
    }
    return sendNg(req, reply, apiError);
  });

  app.setNotFoundHandler(
    // An attacker could map valid URLs if 404s were free (fastify/demo).
    { preHandler: app.rateLimit({ max: 120, timeWindow: '1 minute' }) },
    (req, reply) => {
      const url = req.url.split('?')[0] ?? '/';
      const allowed = [
        'GET',
        'HEAD',
        'POST',
        'PUT',
        'DELETE',
        'PATCH',
        'OPTIONS',
      ].filter((method) => app.hasRoute({ url, method }));
      if (allowed.length > 0 && !allowed.includes(req.method)) {
        return sendNg(
          req,
          reply,
          new ApiError('MethodNotAllowed', undefined, {
            allow: allowed.join(', '),
          }),
        );
      }
      return sendNg(req, reply, new ApiError('NotFound'));
    },
  );
}

/** Answers 503 with Retry-After outside a handler (closing, shedding hooks). */
export const sendServiceUnavailable = (
  req: FastifyRequest,
  reply: FastifyReply,
) => sendNg(req, reply, serviceUnavailable());

/** Every failure as the NG envelope; unknown routes 404, wrong methods 405. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    registerErrorHandling(app);
  },
  { name: 'errors', dependencies: ['rate-limit'] },
);
