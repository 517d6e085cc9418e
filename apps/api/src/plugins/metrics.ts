import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { count, inArray, min } from 'drizzle-orm';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import { mailOutbox } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';

/** What the routes count, and the registry a scrape reads. */
export type AppMetrics = {
  /** This instance's metrics; never prom-client's global registry (tests build many apps in one process). */
  registry: Registry;
  /** Whether /metrics is served at all (METRICS_TOKEN or METRICS_PORT set). */
  exposed: boolean;
  logins: Counter;
  loginFailures: Counter<'code'>;
  /** Events per transaction of the webhook's group commit. */
  webhookBatch: Histogram;
  /** The METRICS_PORT listener's port once it listens (0 in the setting picks a free one); null without it. */
  port(): number | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

/** Seconds: a read answers within 5 ms when cached, a login takes ~100 ms, the timeout is 30 s. */
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time Bearer check: both sides hashed first, so the lengths match too. */
export function bearerMatches(header: string | undefined, token: string) {
  const m = /^Bearer (\S+)$/.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}

type Backlog = { depth: number; oldest: Date | null };

/** Mails not sent yet, and the oldest one's creation, in one query on the status index. */
async function outboxBacklog(app: FastifyInstance): Promise<Backlog> {
  const [row] = await app.database.db
    .select({
      depth: count(),
      oldest: min(mailOutbox.createdAt),
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['queued', 'sending']));
  return row ?? { depth: 0, oldest: null };
}

function register(app: FastifyInstance, registry: Registry): void {
  const { database } = app;
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route pattern (never the raw URL), method and status.',
    labelNames: ['route', 'method', 'status_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', (req: FastifyRequest, reply, done) => {
    duration.observe(
      {
        // The pattern (`/api/user/read`, `/media/*`): labels stay bounded whatever URLs arrive.
        route: req.routeOptions.url ?? 'unmatched',
        method: req.method,
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  new Gauge({
    name: 'proam_db_pool_connections',
    help: 'Database connections by state: max, open, in_use (PostgreSQL pool; PGlite is one connection).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = database.poolStats();
      this.set({ state: 'max' }, s.max);
      this.set({ state: 'open' }, s.open);
      this.set({ state: 'in_use' }, s.inUse);
    },
  });
  new Gauge({
    name: 'proam_db_pool_waiting',
    help: 'Queries waiting for a database connection (PGlite: operations queued behind the running one).',
    registers: [registry],
    collect() {
      this.set(database.poolStats().waiting);
    },
  });
  new Gauge({
    name: 'proam_db_info',
    help: 'The database driver of this instance (value 1).',
    labelNames: ['driver'],
    registers: [registry],
    collect() {
      this.set({ driver: database.driver }, 1);
    },
  });

  // Read from the cache's own counts at each scrape: the read path stays as it is.
  new Counter({
    name: 'proam_shared_cache_reads_total',
    help: 'Reads of the shared cache (news, competitions, pro search and list pages): result="hit" served from memory, "load" read from the database.',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const { hits, loads } = app.publicCache.stats();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'load' }, loads);
    },
  });
  new Gauge({
    name: 'proam_shared_cache_rows',
    help: 'Rows the shared cache holds now (a page counts its length), of 10,000 at most.',
    registers: [registry],
    collect() {
      this.set(app.publicCache.stats().rows);
    },
  });

  new Gauge({
    name: 'proam_websocket_sockets',
    help: 'WebSocket connections (chat) open on this instance.',
    registers: [registry],
    collect() {
      // The ws server of @fastify/websocket tracks every accepted socket until it is closed.
      this.set(
        app.hasDecorator('websocketServer')
          ? app.websocketServer.clients.size
          : 0,
      );
    },
  });

  // One query per scrape for both gauges: prom-client collects them concurrently, so they share it.
  let reading: Promise<Backlog | null> | null = null;
  const backlog = () =>
    (reading ??= outboxBacklog(app)
      .catch((err: unknown) => {
        app.log.warn({ err }, 'metrics: outbox backlog not read');
        return null;
      })
      .finally(() => {
        reading = null;
      }));
  // No figure rather than a stale one when the database does not answer: the series goes absent.
  new Gauge({
    name: 'proam_mail_outbox_depth',
    help: 'Mails in the outbox not sent yet (queued or being sent), all instances together.',
    registers: [registry],
    async collect() {
      const b = await backlog();
      if (b) this.set(b.depth);
      else this.reset();
    },
  });
  new Gauge({
    name: 'proam_mail_outbox_oldest_age_seconds',
    help: 'Age of the oldest mail not sent yet; 0 when the outbox is empty.',
    registers: [registry],
    async collect() {
      const b = await backlog();
      if (!b) this.reset();
      else
        this.set(
          b.oldest
            ? Math.max(
                0,
                (app.clock.now().getTime() - b.oldest.getTime()) / 1000,
              )
            : 0,
        );
    },
  });
}

/**
 * Prometheus metrics (`prom-client`), in a registry of this app's own:
 * request durations by route pattern, process and event-loop figures, the
 * database pool, WebSocket sockets, the mail outbox backlog (read on each
 * scrape) and logins. Served only when configured: `GET /metrics` on the main
 * port behind METRICS_TOKEN, and/or a plain listener on METRICS_PORT;
 * otherwise `/metrics` is an unknown path (404) and nothing is measured but
 * the login counters.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const registry = new Registry();
    const exposed = config.metricsToken !== null || config.metricsPort !== null;
    let listener: http.Server | null = null;
    const metrics: AppMetrics = {
      registry,
      exposed,
      logins: new Counter({
        name: 'proam_logins_total',
        help: 'Successful password logins (/api/auth/login).',
        registers: [registry],
      }),
      loginFailures: new Counter({
        name: 'proam_login_failures_total',
        help: 'Refused password logins (/api/auth/login), by error code.',
        labelNames: ['code'],
        registers: [registry],
      }),
      webhookBatch: new Histogram({
        name: 'proam_webhook_batch_events',
        help: 'Stripe events handled in one transaction (/api/payment/webhook groups the events of a burst).',
        buckets: [1, 2, 5, 10, 20, 50],
        registers: [registry],
      }),
      port: () =>
        listener?.listening ? (listener.address() as AddressInfo).port : null,
    };
    // The usual failure exists from the start, so rate() sees its first increase.
    metrics.loginFailures.inc({ code: 'InvalidCredentials' }, 0);
    app.decorate('metrics', metrics);
    if (!exposed) return;
    register(app, registry);

    if (config.metricsPort !== null) {
      const port = config.metricsPort;
      // Plain node:http, outside Fastify: no hooks, limits or shedding between Prometheus and the figures.
      const server = http.createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        if (path !== '/metrics') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
          return;
        }
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res
            .writeHead(405, {
              allow: 'GET, HEAD',
              'content-type': 'text/plain',
            })
            .end('Method Not Allowed');
          return;
        }
        registry.metrics().then(
          (body) => {
            res.writeHead(200, {
              'content-type': registry.contentType,
              'cache-control': 'no-store',
            });
            res.end(req.method === 'HEAD' ? undefined : body);
          },
          (err: unknown) => {
            app.log.error({ err }, 'metrics: scrape failed');
            res.writeHead(500).end();
          },
        );
      });
      server.requestTimeout = 30_000;
      server.keepAliveTimeout = 5_000;
      listener = server;
      // At ready, not at listen: a taken port stops the start-up instead of only being logged.
      app.addHook('onReady', async () => {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, config.host, () => {
            server.off('error', reject);
            resolve();
          });
        });
        app.log.info(
          { host: config.host, port: metrics.port() },
          'metrics listener ready',
        );
      });
      app.addHook('onClose', async () => {
        if (!server.listening) return;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      });
    }
  },
  { name: 'metrics', dependencies: ['config', 'database'] },
);

/**
 * `GET /metrics` on the main port, only with METRICS_TOKEN. Registered after
 * the errors plugin (app.ts), so a refused scrape gets the 401 envelope.
 */
export const metricsRoutePlugin = fp(
  async (app: FastifyInstance) => {
    const token = app.config.metricsToken;
    const { registry } = app.metrics;
    if (token === null) return;
    app.get(
      '/metrics',
      {
        config: {
          auth: 'none',
          // Scrapes go through while requests are shed: that is when they matter most.
          pressureHandler: () => undefined,
        },
        schema: { hide: true },
      },
      async (req, reply) => {
        if (!bearerMatches(req.headers.authorization, token)) {
          reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
          throw new ApiError('InvalidAccessToken');
        }
        const body = await registry.metrics();
        return reply
          .type(registry.contentType)
          .header('Cache-Control', 'no-store')
          .send(body);
      },
    );
  },
  { name: 'metrics-route', dependencies: ['metrics', 'errors'] },
);
