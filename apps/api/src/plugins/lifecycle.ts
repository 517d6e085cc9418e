import type { FastifyInstance } from 'fastify';
import fastifyUnderPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import { isApiUrl } from './security-headers.js';
import { sendServiceUnavailable } from './errors.js';

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
    if (config.shedDbQueue > 0)
      app.addHook('onRequest', (req, reply, done) => {
        if (isApiUrl(req.url) && database.queued() > config.shedDbQueue) {
          void sendServiceUnavailable(req, reply);
          return;
        }
        done();
      });
  },
  { name: 'shedding', dependencies: ['database', 'errors'] },
);
