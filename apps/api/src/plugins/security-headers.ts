import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';
import fp from 'fastify-plugin';
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
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows helmet's callback error exactly as helmet gave it
  if (failure) throw failure;
  return headers;
}

/** The path part of a URL: query strings may carry passwords or codes and never reach a log. */
export const pathOnly = (url: string) => url.split('?')[0] ?? url;

/**
 * Whether a call is for the API, as the router sees it: it decodes
 * percent-escapes, so `/%61pi/...` reaches the API routes too.
 */
export function isApiUrl(url: string): boolean {
  if (url.startsWith('/api/')) return true;
  if (!url.includes('%')) return false;
  try {
    return decodeURIComponent(pathOnly(url)).startsWith('/api/');
  } catch {
    return false;
  }
}

/**
 * The headers every response carries: the page policy of docs/security.md
 * (strict CSP, helmet's set) for pages and files, and the API set (HD-03)
 * for `/api`, both computed once; and the request id.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    // Stripe's script and frames are allowed only where payments are on.
    const stripe = config.stripe
      ? {
          script: ['https://js.stripe.com'],
          connect: ['https://api.stripe.com'],
          frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        }
      : { script: [], connect: [], frame: [] };
    const documentHeaders = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...stripe.script],
          styleSrc: ["'self'"],
          imgSrc: [
            "'self'",
            'data:',
            'blob:',
            ...(config.mediaBaseUrl.startsWith('http')
              ? [new URL(config.mediaBaseUrl).origin]
              : []),
          ],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...stripe.connect],
          ...(stripe.frame.length ? { frameSrc: stripe.frame } : {}),
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
          // Punch-out buyers post their basket back to their own purchasing system.
          formAction: [
            "'self'",
            ...config.punchoutBuyers.map((b) => b.returnOrigin),
          ],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
    });
    // JSON is never rendered as a page: the API's policy allows nothing (HD-03) and
    // leaves out the headers that only mean something for documents. Half the bytes of a
    // small answer were headers, and on loopback every byte counts in the req/s.
    const apiHeaders: Record<string, string> = {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'strict-transport-security':
        documentHeaders['Strict-Transport-Security']!,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    };
    // One synchronous hook for the headers every response carries.
    app.addHook('onRequest', (req, reply, done) => {
      reply.headers(isApiUrl(req.url) ? apiHeaders : documentHeaders);
      reply.header('X-Request-Id', req.id);
      done();
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);

/** Only the configured origins may call the API from a browser (the native apps). */
export const corsPlugin = fp(
  async (app: FastifyInstance) => {
    const corsOrigins = app.config.corsOrigins;
    await app.register(fastifyCors, {
      // CORS headers only mean something to a caller that sent an Origin; the app itself and
      // servers calling the API send none, so they get none back (Vary: Origin stays).
      origin: (origin, cb) =>
        cb(null, origin === undefined ? false : corsOrigins),
      methods: ['POST'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['X-Request-Id', 'Retry-After'],
      maxAge: 600,
    });
  },
  { name: 'cors', dependencies: ['config', 'security-headers'] },
);
