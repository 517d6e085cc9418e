import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers, computed once. Our policy is the same for every response,
 * and @fastify/helmet rebuilds the whole helmet middleware on every request
 * (7 % of the CPU of an authenticated /user/read in the profile), so we run
 * helmet's own middleware once at start-up against a recorder and replay what
 * it set.
 */
export function securityHeaders(
  options: HelmetOptions,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  let failure: unknown;
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (err?: unknown) => {
      failure = err;
    },
  );
  if (failure) throw failure;
  return headers;
}
