import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyUnderPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import { isApiUrl } from './security-headers.js';
import { sendServiceUnavailable } from './errors.js';
import { SOCKET_PATH, upgradeGate } from '../realtime/upgrade-gate.js';

/**
 * WebSocket upgrades authenticated at once. Each needs the member's row, and
 * concurrent misses share the member cache's batched look-ups, so this bounds
 * memory and event-loop work more than database load.
 */
const UPGRADE_CONCURRENCY = 32;
/** How long an upgrade may wait for its turn before the 503: clients' handshakes time out later than this. */
const UPGRADE_WAIT_MS = 10_000;
/** Upgrades waiting at most: beyond it (an instance far behind) they are refused at once. */
const UPGRADE_LINE = 5_000;
/**
 * Upgrades one client IP may have waiting, a tenth of the line: one source
 * cannot fill it and have everyone else's upgrades refused, while members
 * behind one carrier or office address (or every client, behind a proxy that
 * TRUST_PROXY does not name) still reconnect together after a restart; those
 * beyond it get the 503 and retry after their backoff.
 */
const UPGRADE_WAITING_PER_IP = 500;

/**
 * A WebSocket upgrade of the chat socket, as Node tells one apart (it hands
 * the request to the `upgrade` event only with `Connection: upgrade`): a GET
 * of the socket route (as the router matched it, percent-escapes and all).
 * Nothing else takes a turn at the gate: a request that merely carries an
 * `Upgrade` header is an ordinary call, whose turn would otherwise last until
 * its body arrived (up to the 30 s request timeout).
 */
const isUpgrade = (req: FastifyRequest) =>
  req.method === 'GET' &&
  req.routeOptions.url === SOCKET_PATH &&
  req.headers.upgrade?.toLowerCase() === 'websocket' &&
  (req.headers.connection ?? '')
    .split(',')
    .some((t) => t.trim().toLowerCase() === 'upgrade');

export type Lifecycle = {
  /** SIGTERM received: readiness fails so balancers move away, calls are still served. */
  shuttingDown: boolean;
  /** `app.close()` has begun: API calls still arriving on open connections get a 503 envelope. */
  closing: boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/**
 * Keep-alive connections may carry calls after close() began; they get the
 * 503 envelope (Fastify adds `Connection: close`). Registered after CORS, so
 * the app sees the answer cross-origin. Pages and files are still served
 * while draining. Fastify's own closing answer is not our envelope, hence
 * `return503OnClosing: false` in app.ts.
 */
export const closingPlugin = fp(
  async (app: FastifyInstance) => {
    const lifecycle: Lifecycle = { shuttingDown: false, closing: false };
    app.decorate('lifecycle', lifecycle);
    app.addHook('preClose', (done) => {
      lifecycle.closing = true;
      done();
    });
    app.addHook('onRequest', (req, reply, done) => {
      if (!lifecycle.closing || !isApiUrl(req.url)) {
        done();
        return;
      }
      void sendServiceUnavailable(req, reply);
    });
  },
  { name: 'closing', dependencies: ['cors'] },
);

/**
 * Load shedding: 503 with Retry-After while the event loop lags
 * (@fastify/under-pressure), and, on PostgreSQL, while too many queries wait
 * for a connection (there an overload queues in the pool while the event loop
 * stays idle, so the delay never rises).
 *
 * WebSocket upgrades are not refused for the database queue: they wait their
 * turn at the upgrade gate (realtime/upgrade-gate.ts), which admits a bounded
 * number at a time and none while the queue is too long, and answers 503 only
 * after UPGRADE_WAIT_MS. A reconnect storm is then served at the rate the
 * instance can take instead of being sent back to retry all together.
 */
export const sheddingPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, database } = app;
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay: config.shedDelayMs,
      retryAfter: 5,
      pressureHandler: (req, reply) => {
        void sendServiceUnavailable(req, reply);
      },
    });
    const dbBusy = () =>
      config.shedDbQueue > 0 && database.queued() > config.shedDbQueue;
    const gate = upgradeGate({
      concurrency: UPGRADE_CONCURRENCY,
      maxWaitMs: UPGRADE_WAIT_MS,
      maxLine: UPGRADE_LINE,
      maxWaitingPerKey: UPGRADE_WAITING_PER_IP,
      busy: dbBusy,
    });
    /** The gate's release for an admitted upgrade, called once its authentication is over. */
    const releases = new WeakMap<FastifyRequest, () => void>();
    const release = (req: FastifyRequest) => {
      releases.get(req)?.();
      releases.delete(req);
    };
    app.addHook('onRequest', (req, reply, done) => {
      if (!isApiUrl(req.url)) {
        done();
        return;
      }
      if (isUpgrade(req)) {
        void gate.admit(req.ip).then((admitted) => {
          if (!admitted) {
            void sendServiceUnavailable(req, reply);
            return;
          }
          // A client that gave up while waiting frees its turn at once, and one that does while being checked frees it then.
          // (@fastify/websocket's injectWS upgrades without a socket.)
          const socket = req.raw.socket as Socket | undefined;
          if (socket?.destroyed) {
            admitted();
            return;
          }
          const onClose = () => release(req);
          socket?.once('close', onClose);
          releases.set(req, () => {
            socket?.off('close', onClose);
            admitted();
          });
          done();
        });
        return;
      }
      if (dbBusy()) {
        void sendServiceUnavailable(req, reply);
        return;
      }
      done();
    });
    // The check is over once the handler is reached (the socket opens) or an answer was sent (refused).
    app.addHook('preHandler', (req, _reply, done) => {
      release(req);
      done();
    });
    app.addHook('onResponse', (req, _reply, done) => {
      release(req);
      done();
    });
  },
  { name: 'shedding', dependencies: ['database', 'errors'] },
);
