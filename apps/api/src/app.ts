import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { systemClock, type Clock } from './lib/clock.js';
import { newId } from './lib/ids.js';
import type { Mailer } from './mail/mailer.js';
import { authPlugin } from './plugins/auth.js';
import { configPlugin, databasePlugin } from './plugins/core.js';
import { paymentsPlugin } from './plugins/payments.js';
import { mailPlugin } from './plugins/mail.js';
import { metricsPlugin, metricsRoutePlugin } from './plugins/metrics.js';
import { docsPlugin } from './plugins/docs.js';
import { errorsPlugin } from './plugins/errors.js';
import { closingPlugin, sheddingPlugin } from './plugins/lifecycle.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { repositoriesPlugin } from './plugins/repositories.js';
import {
  corsPlugin,
  pathOnly,
  securityHeadersPlugin,
} from './plugins/security-headers.js';
import { webPlugin } from './plugins/web.js';
import { SOCKET_PROTOCOL } from './routes/chat.js';
import { routes } from './routes/index.js';

export { isApiUrl, pathOnly } from './plugins/security-headers.js';

export const DEFAULT_BODY_LIMIT = 64 * 1024;

export type AppOptions = {
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Sees every route as it is added (the route inventory test). */
  onRoute?: (route: never) => void;
};

export type { Lifecycle as AppState } from './plugins/lifecycle.js';

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

/**
 * One access line per request, where Fastify writes two ("incoming request",
 * then "request completed" without the path). The line is written without
 * the redaction every other line goes through: its fields are the `req`
 * serializer's (method, path without the query, address), the status and
 * the time, nothing a caller typed. The two lines were a quarter of a cached
 * read's CPU, and the redaction a third of each line.
 */
export class AccessLog extends LogController {
  #log: FastifyBaseLogger | undefined;

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      // An error's message may quote input: the redacted logger.
      reply.log.error(
        {
          req: request,
          res: reply,
          err: error,
          responseTime: reply.elapsedTime,
        },
        'request errored',
      );
      return;
    }
    this.#log ??= request.server.log.child({}, { redact: [] });
    this.#log.info(
      {
        reqId: request.id,
        req: request,
        res: reply,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

type ChildLoggerFactory = NonNullable<
  FastifyServerOptions['childLoggerFactory']
>;
type Bindings = Parameters<ChildLoggerFactory>[1];
type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type PinoLike = FastifyBaseLogger & {
  isLevelEnabled(level: LogLevel): boolean;
};

/**
 * A request's logger that becomes pino's child (the reqId bound) only when the
 * request logs at an enabled level. Fastify asks for a child on every request,
 * and pino serialises the child's bindings, through the redaction, at once,
 * although most requests never log through it (the access line has its own
 * logger, AccessLog): those children were 3 % of a cached read's server CPU.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  #real: FastifyBaseLogger | undefined;
  readonly #parent: PinoLike;
  readonly #bindings: Bindings;

  constructor(parent: PinoLike, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #logger(): FastifyBaseLogger {
    return (this.#real ??= this.#parent.child(this.#bindings));
  }

  #log(level: LogLevel, args: unknown[]): void {
    // Once made, the child decides (its level may have been set apart).
    if (!this.#real && !this.#parent.isLevelEnabled(level)) return;
    const logger = this.#logger();
    Reflect.apply(logger[level], logger, args);
  }

  get level(): string {
    return (this.#real ?? this.#parent).level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(
    bindings: Bindings,
    options?: Parameters<ChildLoggerFactory>[2],
  ): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

/**
 * A route with logger options of its own (`logLevel`, `logSerializers`) gets
 * its child at once: the parent's level and serializers are not its own.
 */
const requestLogger: ChildLoggerFactory = (logger, bindings, options) =>
  Object.keys(options).length > 0
    ? logger.child(bindings, options)
    : new LazyRequestLogger(logger as PinoLike, bindings);

/** What the server hands the app; tests may pass their own mailer and clock. */
export type AppInput = {
  config: Config;
  database: Database;
  mailer?: Mailer;
  clock?: Clock;
};

/**
 * The Fastify instance, plugin by plugin in boot order: settings, database,
 * metrics, repositories, mail, security headers, CORS, the closing answer, rate
 * limits, error envelopes, load shedding, the API description, tokens, the
 * WebSocket, the routes, and the web app and media last (docs/architecture.md).
 */
export async function buildApp(input: AppInput, opts: AppOptions = {}) {
  const { config } = input;
  const app: FastifyInstance = Fastify({
    logger: loggerOptions(config.logLevel, opts.logStream),
    logController: new AccessLog(),
    childLoggerFactory: requestLogger,
    // Callers never choose their request id (docs/security.md LG-07).
    requestIdHeader: false,
    genReqId: () => newId(),
    trustProxy: config.trustProxy,
    // What a call needs (a 10,000-character news body is about 30 KB); the
    // routes that carry more (uploads, competition results) raise their own.
    bodyLimit: DEFAULT_BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    forceCloseConnections: 'idle',
    // Its closing answer is not our envelope: the closing plugin answers instead.
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
  jsonOnly(app);

  await app.register(configPlugin, {
    config,
    clock: input.clock ?? systemClock,
  });
  await app.register(databasePlugin, { database: input.database });
  // Early, so its timing hook sees every route registered after it.
  await app.register(metricsPlugin);
  await app.register(repositoriesPlugin);
  await app.register(paymentsPlugin);
  await app.register(mailPlugin, input.mailer ? { mailer: input.mailer } : {});
  await app.register(securityHeadersPlugin);
  await app.register(corsPlugin);
  await app.register(closingPlugin);
  await app.register(rateLimitPlugin);
  await app.register(errorsPlugin);
  await app.register(sheddingPlugin);
  await app.register(docsPlugin);
  await app.register(authPlugin);
  await app.register(metricsRoutePlugin);
  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: 64 * 1024,
      // Clients offer `proam` beside `bearer.<token>`: answering `proam` keeps the token out of
      // the response. Without it nothing is chosen (the upgrade check refuses such clients).
      handleProtocols: (protocols) =>
        protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false,
    },
  });
  await app.register(routes);
  await app.register(webPlugin);
  return { app, state: app.lifecycle };
}

/**
 * JSON only: Fastify's text/plain parser would let "simple" cross-site POSTs
 * in (docs/security.md HD-06). The seed's /auth/refresh posts an empty body
 * with a JSON content type, which reads as no input.
 */
function jsonOnly(app: FastifyInstance): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (req, body, done) => {
      if (body === '' || (typeof body === 'string' && body.trim() === '')) {
        done(null, undefined);
        return;
      }
      // The parser answers through done; its void-or-Promise return carries nothing.
      void defaultJson(req, body as string, done);
    },
  );
}
