// The plugin ships its Redis store as a plain CommonJS file without types.
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key?: string,
  ) => FastifyRateLimitStore;
  export default RedisStore;
}
