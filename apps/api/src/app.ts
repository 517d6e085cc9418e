import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import fastifyCors from '@fastify/cors';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifyUnderPressure from '@fastify/under-pressure';
import { newId } from './lib/ids.js';
import { systemClock, type Clock } from './lib/clock.js';
import { ApiError } from './lib/api-error.js';
import { registerErrorHandling, sendNg } from './plugins/errors.js';
import { registerAuth } from './plugins/auth.js';
import { userRepository } from './repositories/user-repository.js';
import { registerWeb } from './plugins/web.js';
import { securityHeaders } from './plugins/security-headers.js';
import type { Deps } from './routes/deps.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createUserCache } from './repositories/user-cache.js';
import { healthRoutes } from './routes/health.js';
import { newsRoutes } from './routes/news.js';
import { competitionRoutes } from './routes/competition.js';
import { contactRoutes } from './routes/contact.js';
import { authRoutes } from './routes/auth.js';
import { userRoutes } from './routes/users.js';
import { likeRoutes } from './routes/likes.js';
import { storageRoutes } from './routes/storage.js';
import { scheduleRoutes } from './routes/schedule.js';
import { chatRoutes } from './routes/chat.js';
import { punchoutRoutes } from './routes/punchout.js';
import fastifyWebsocket from '@fastify/websocket';
import { Redis } from 'ioredis';

export type AppOptions = {
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Sees every route as it is added (the route inventory test). */
  onRoute?: (route: never) => void;
};

export type AppState = {
  /** SIGTERM received: readiness fails so balancers move away, calls are still served. */
  shuttingDown: boolean;
  /** `app.close()` has begun: API calls still arriving on open connections get a 503 envelope. */
  closing: boolean;
};

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

export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.code',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: {
        method: string;
        url: string;
        ip?: string;
        id?: string;
      }) => ({
        method: req.method,
        url: pathOnly(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

/** What the server hands the app; the mailer defaults to one logging through the app. */
export type AppInput = Omit<Deps, 'mailer' | 'clock' | 'userCache'> & {
  mailer?: Mailer;
  clock?: Clock;
};

export async function buildApp(input: AppInput, opts: AppOptions = {}) {
  const { config } = input;
  const state: AppState = { shuttingDown: false, closing: false };
  const app: FastifyInstance = Fastify({
    logger: loggerOptions(config.logLevel, opts.logStream),
    // Callers never choose their request id (SECURITY LG-07).
    requestIdHeader: false,
    genReqId: () => newId(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    forceCloseConnections: 'idle',
    // Its closing answer is not our envelope: the hook below answers instead.
    return503OnClosing: false,
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
      },
    },
  });

  if (opts.onRoute)
    app.addHook('onRoute', opts.onRoute as (route: unknown) => void);
  const mailer =
    input.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      log: app.log.child({ component: 'mailer' }),
    });
  app.addHook('onClose', async () => {
    await mailer.idle();
    mailer.close();
  });
  const userCache = await createUserCache(input.database);
  app.addHook('onClose', async () => {
    await userCache.close();
  });
  const deps: Deps = {
    ...input,
    mailer,
    clock: input.clock ?? systemClock,
    userCache,
  };

  // JSON only: Fastify's text/plain parser would let "simple" cross-site POSTs in (SECURITY HD-06).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (req, body, done) => {
      // The seed's /auth/refresh posts an empty body with a JSON content type.
      if (body === '' || (typeof body === 'string' && body.trim() === '')) {
        done(null, undefined);
        return;
      }
      defaultJson(req, body as string, done);
    },
  );

  // Stripe's script and frames are allowed only where a publishable key is configured.
  const stripe = config.stripePublishableKey
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
  // JSON is never rendered as a page: the API's policy allows nothing (SECURITY HD-03) and
  // leaves out the headers that only mean something for documents. Half the bytes of a small
  // answer were headers, and on loopback every byte counts in the req/s (README, benchmarks).
  const apiHeaders: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': documentHeaders['Strict-Transport-Security']!,
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
  const corsOrigins = config.corsOrigins;
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
  app.addHook('preClose', (done) => {
    state.closing = true;
    done();
  });
  // Keep-alive connections may carry calls after close() began; they get a 503 envelope
  // (Fastify adds `Connection: close`), after the CORS hook so the app sees it cross-origin.
  // Pages and files are still served while draining.
  app.addHook('onRequest', (req, reply, done) => {
    if (!state.closing || !isApiUrl(req.url)) {
      done();
      return;
    }
    void sendNg(
      req,
      reply,
      new ApiError('ServiceUnavailable', undefined, { 'retry-after': '5' }),
    );
  });
  // Behind a load balancer every instance must count against one budget (REDIS_URL).
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        // The plugin's advice: fail a limited call fast rather than queue it while Redis is away.
        connectTimeout: 500,
        maxRetriesPerRequest: 1,
      })
    : null;
  if (redis) {
    // ioredis reconnects by itself; without a listener its errors go to the console, not the log.
    redis.on('error', (err: Error) => app.log.warn({ err }, 'redis error'));
    app.addHook('onClose', async () => void (await redis.quit()));
  }
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis } : {}),
    errorResponseBuilder: (_req, ctx) =>
      new ApiError('TooManyRequests', undefined, {
        'retry-after': String(Math.ceil(ctx.ttl / 1000)),
      }),
  });
  registerErrorHandling(app);
  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: config.shedDelayMs,
    retryAfter: 5,
    pressureHandler: (req, reply) => {
      void sendNg(
        req,
        reply,
        new ApiError('ServiceUnavailable', undefined, { 'retry-after': '5' }),
      );
    },
  });
  // On PostgreSQL an overload queues in the connection pool while the event loop stays
  // idle, so the delay above never rises: shed on the pool's queue as well.
  if (config.shedDbQueue > 0)
    app.addHook('onRequest', (req, reply, done) => {
      if (isApiUrl(req.url) && input.database.queued() > config.shedDbQueue) {
        void sendNg(
          req,
          reply,
          new ApiError('ServiceUnavailable', undefined, { 'retry-after': '5' }),
        );
        return;
      }
      done();
    });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'ProAm Connect API', version: '0.1.0' },
      servers: [{ url: '/' }],
    },
  });
  const members = userRepository(input.database.db, userCache);
  await registerAuth(app, {
    jwtSecret: config.jwtSecret,
    apiClients: config.apiClients,
    member: (id) => members.find(id),
    cachedMember: (id) => userCache.peek(id),
  });
  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: 64 * 1024,
      // Clients offer `proam` beside `bearer.<token>`: answering `proam` keeps the token out of the response.
      handleProtocols: (protocols) =>
        protocols.has('proam') ? 'proam' : ([...protocols][0] ?? false),
    },
  });

  healthRoutes(app, deps, state);
  newsRoutes(app, deps);
  competitionRoutes(app, deps);
  contactRoutes(app, deps);
  authRoutes(app, deps);
  userRoutes(app, deps);
  likeRoutes(app, deps);
  storageRoutes(app, deps);
  scheduleRoutes(app, deps);
  await chatRoutes(app, deps);
  await punchoutRoutes(app, deps);

  app.get(
    '/api/openapi.json',
    { config: { auth: 'none' }, schema: { hide: true } },
    async () => app.swagger(),
  );

  await registerWeb(app, config);
  return { app, state };
}
