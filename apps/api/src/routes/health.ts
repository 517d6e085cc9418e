import type { FastifyInstance } from 'fastify';
import { ApiError } from '../lib/api-error.js';

export function healthRoutes(app: FastifyInstance): void {
  const { database, lifecycle } = app;
  app.get('/healthz', { config: { auth: 'none' } }, async (req) => ({
    status: 'OK',
    reqId: req.id,
    body: { alive: true },
  }));

  app.get('/readyz', { config: { auth: 'none' } }, async (req) => {
    if (lifecycle.shuttingDown) throw new ApiError('ServiceUnavailable');
    try {
      await Promise.race([
        database.ping(),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), 2000).unref(),
        ),
      ]);
    } catch (err) {
      req.log.warn({ err }, 'database not ready');
      throw new ApiError('ServiceUnavailable');
    }
    return {
      status: 'OK',
      reqId: req.id,
      body: { ready: true, database: database.driver },
    };
  });
}
