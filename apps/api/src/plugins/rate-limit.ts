import type { FastifyInstance } from 'fastify';
import fastifyRateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
  type RateLimitPluginOptions,
} from '@fastify/rate-limit';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { ApiError, serviceUnavailable } from '../lib/api-error.js';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * The plugin's Redis store, but a Redis that does not answer makes the call
 * 503 ServiceUnavailable with Retry-After (the plugin would answer 500), logs
 * once per outage, and logs again when Redis is back. Limited calls are
 * refused rather than let through: they are the expensive or abusable ones
 * (logins, codes, uploads, chat), and skipping their limits while Redis is
 * away would hand every instance a fresh budget.
 */
function guardedRedisStore(
  redis: Redis,
  outage: { down: boolean; log: FastifyInstance['log'] },
) {
  const guard = (inner: FastifyRateLimitStore): FastifyRateLimitStore => ({
    incr(key, callback: IncrCallback, timeWindow, max) {
      inner.incr(
        key,
        (err, result) => {
          if (err) {
            if (!outage.down) {
              outage.down = true;
              outage.log.error(
                { err: { type: err.name, message: err.message } },
                'rate-limit store unavailable: limited calls answer 503 until Redis is back',
              );
            }
            callback(serviceUnavailable());
            return;
          }
          if (outage.down) {
            outage.down = false;
            outage.log.info('rate-limit store available again');
          }
          callback(null, result);
        },
        timeWindow,
        max,
      );
    },
    child: (routeOptions) => guard(inner.child(routeOptions)),
  });
  // The plugin constructs the store itself (`new Store(globalParams)`).
  return function GuardedStore(options: RateLimitPluginOptions) {
    return guard(
      new RedisStore(
        options.continueExceeding ?? false,
        options.exponentialBackoff ?? false,
        redis,
      ),
    );
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * Per-route limits (`rateLimit` in a route's declaration; none by default).
 * With REDIS_URL every instance counts against one budget, as a load balancer
 * needs; without it each process counts alone.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const redisUrl = app.config.redisUrl;
    const redis = redisUrl
      ? new Redis(redisUrl, {
          // Fail a limited call fast rather than queue it while Redis is away
          // (the plugin's advice): one retry after a reconnect attempt, and a
          // second at most for an answer. Calls made while the first connection
          // is being set up still wait for it. ioredis keeps reconnecting.
          connectTimeout: 2000,
          maxRetriesPerRequest: 1,
          commandTimeout: 1000,
        })
      : null;
    if (redis) {
      // Without a listener ioredis writes every reconnect failure to the console;
      // the store's guard logs the outage once instead.
      redis.on('error', () => undefined);
      app.addHook('onClose', async () => {
        redis.disconnect();
      });
    }
    await app.register(fastifyRateLimit, {
      global: false,
      ...(redis
        ? {
            store: guardedRedisStore(redis, {
              down: false,
              log: app.log.child({ component: 'rate-limit' }),
            }),
          }
        : {}),
      errorResponseBuilder: (_req, ctx) =>
        new ApiError('TooManyRequests', undefined, {
          'retry-after': String(Math.ceil(ctx.ttl / 1000)),
        }),
    });
  },
  { name: 'rate-limit', dependencies: ['config'] },
);
