import { LRUCache } from 'lru-cache';
import type { Database } from '../db/database.js';
import type { users } from '../db/schema.js';

type UserRow = typeof users.$inferSelect;

/** Channel of the `users_changed` trigger (migration 0005): the id of every updated or deleted member. */
export const USER_CHANGES_CHANNEL = 'proam_user';

export type UserCache = {
  /** The member's row from this process's cache, else from `load` (unknown ids are not cached). */
  get(
    id: string,
    load: (id: string) => Promise<UserRow | undefined>,
  ): Promise<UserRow | undefined>;
  /** The cached row, without loading it: the synchronous fast path of the token check. */
  peek(id: string): UserRow | undefined;
  /** Drops rows this process has just changed; call after the write has committed. */
  evict(...ids: string[]): void;
  close(): Promise<void>;
};

/**
 * Member rows by id, kept in this process: profile look-ups are the busiest
 * reads of the member area (the /user/read figures in README, Reliability and performance), and a row changes
 * rarely. Staleness is bounded by these rules:
 * - the trigger's NOTIFY, sent at commit, drops the row on every instance
 *   (across instances on PostgreSQL; in this process on PGlite), whatever
 *   code or tool made the change;
 * - our own writers also evict right after their commit, so a member reads
 *   their own write on this instance without waiting for the notification;
 * - a load that began before any eviction is not stored, so a slow read can't
 *   put back a row older than a write it raced with;
 * - when the LISTEN connection is re-established (notifications may have been
 *   missed) everything is dropped, and no entry lives longer than `ttlMs`.
 * Another instance may serve the old row for the notification's flight time
 * (well under a millisecond on one host).
 */
export async function createUserCache(
  database: Database,
  { max = 10_000, ttlMs = 30_000 } = {},
): Promise<UserCache> {
  const rows = new LRUCache<string, UserRow>({ max, ttl: ttlMs });
  let epoch = 0;
  const evict = (...ids: string[]) => {
    epoch++;
    for (const id of ids) rows.delete(id);
  };
  const unlisten = await database.listen(
    USER_CHANGES_CHANNEL,
    (id) => evict(id),
    () => {
      epoch++;
      rows.clear();
    },
  );
  return {
    async get(id, load) {
      const cached = rows.get(id);
      if (cached) return cached;
      const started = epoch;
      const row = await load(id);
      if (row && epoch === started) rows.set(id, row);
      return row;
    },
    peek: (id) => rows.get(id),
    evict,
    // The database may be gone already (it is closed after the app): nothing left to stop then.
    close: () => unlisten().catch(() => undefined),
  };
}
