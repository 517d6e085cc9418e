import { ERRORS, type ErrorCode } from '@proam/contract';

/**
 * The one way a handler reports a failure. The error handler turns it into the
 * NG envelope with the HTTP status and Japanese message of spec/API.md.
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
