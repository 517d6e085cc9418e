import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import {
  createPublicCache,
  type PublicCache,
} from '../repositories/public-cache.js';
import { createUserCache, type UserCache } from '../repositories/user-cache.js';
import { objectStoreFor, type ObjectStore } from '../storage/object-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: Clock;
    database: Database;
    /** Member rows cached per process, dropped on every change (users_changed). */
    userCache: UserCache;
    /** Reads every caller shares (news, competitions, pro search pages) cached per process, forgotten on every change (0014, 0017). */
    publicCache: PublicCache;
    /** Where media objects live: DATA_DIR/media or an S3 bucket. */
    objectStore: ObjectStore;
  }
}

/** Run-time settings and the clock every rule reads (tests pass their own). */
export const configPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; clock: Clock }) => {
    app.decorate('config', opts.config);
    app.decorate('clock', opts.clock);
  },
  { name: 'config' },
);

/**
 * The database the server opened (the server closes it after the app), the
 * caches that listen to it (members, public reads), and the object store for media.
 */
export const databasePlugin = fp(
  async (app: FastifyInstance, opts: { database: Database }) => {
    app.decorate('database', opts.database);
    const publicCache = await createPublicCache(opts.database);
    app.decorate('publicCache', publicCache);
    const userCache = await createUserCache(opts.database, {
      // A pro search page is made of member rows.
      onWritten: () => publicCache.changed('pros'),
    });
    app.decorate('userCache', userCache);
    app.addHook('onClose', async () => {
      await Promise.all([userCache.close(), publicCache.close()]);
    });
    app.decorate('objectStore', objectStoreFor(app.config));
  },
  { name: 'database', dependencies: ['config'] },
);
