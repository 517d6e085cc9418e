import { ERRORS, type ErrorCode } from '@proam/contract';

/**
 * The one way a handler reports a failure. The error handler turns it into the
 * NG envelope with the HTTP status and Japanese message of docs/api.md.
 */
export class ApiError extends Error {
  readonly http: number;
  constructor(
    readonly code: ErrorCode,
    /** For ValidationError: the field, appended to the message as `（field）`. */
    readonly field?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.name = 'ApiError';
    this.http = ERRORS[code].http;
  }

  get msg(): string {
    const base: string = ERRORS[this.code].msg;
    return this.field ? `${base}（${this.field}）` : base;
  }
}

/**
 * 503 ServiceUnavailable with Retry-After: the one answer for "not now"
 * (shedding, closing, a full queue, a store away), so clients can wait and
 * try again.
 */
export const serviceUnavailable = (retryAfterSeconds = 5): ApiError =>
  new ApiError('ServiceUnavailable', undefined, {
    'retry-after': String(retryAfterSeconds),
  });
