import { and, ne, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { batchQueue, type Settled } from '../lib/batch-queue.js';

type UserRow = typeof users.$inferSelect;

/** Loads the member rows among `ids` (buyers are not members); the order does not matter. */
export type LoadMany = (ids: string[]) => Promise<UserRow[]>;

/** Ids in one batched look-up: a long `in (...)` list is still one index scan per id, but a bounded message. */
const BATCH_MAX = 500;
/**
 * Batched look-ups running at once. Misses arriving meanwhile wait for the
 * next batch, so a burst of cache misses (a reconnect storm after a restart)
 * takes at most this many pool connections instead of one per socket, and
 * adds at most this many to the pool's queue that load shedding watches. The
 * busier the instance, the bigger each batch.
 */
const BATCHES_IN_FLIGHT = 2;

/** Channel of the `users_changed` trigger (migration 0005): the id of every updated or deleted member. */
export const USER_CHANGES_CHANNEL = 'proam_user';

export type UserCache = {
  /**
   * The member's row from the cache, else from the database through the
   * batched loader: concurrent misses of one id share one look-up, and the
   * misses of one turn of the event loop go as one `where id in (...)` query
   * (unknown ids are not cached). For reads outside a transaction (the token
   * check, profiles).
   */
  member(id: string): Promise<UserRow | undefined>;
  /** The cached row, without loading it: the synchronous fast path of the token check. */
  peek(id: string): UserRow | undefined;
  /** How many batched look-ups `member` has sent, and for how many ids in all. */
  lookups(): { queries: number; ids: number };
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
 *
 * `member` shares one look-up between concurrent misses of an id only until
 * that id is evicted: a call after the eviction gets a look-up of its own,
 * which starts after the write committed.
 */
export async function createUserCache(
  database: Database,
  {
    max = 10_000,
    ttlMs = 30_000,
    loadMany = defaultLoadMany(database),
    onWritten,
  }: {
    max?: number;
    ttlMs?: number;
    loadMany?: LoadMany;
    /**
     * Told of our own writers' evictions of a row that may be a pro's (not
     * of other instances' notifications): the pro search's pages, built from
     * pros' rows, are forgotten at once too.
     */
    onWritten?: () => void;
  } = {},
): Promise<UserCache> {
  const rows = new LRUCache<string, UserRow>({ max, ttl: ttlMs });
  /**
   * Each member's type, kept past their row's eviction (the app never changes
   * it): on PGlite the trigger's notice evicts a row before its writer does.
   */
  const types = new LRUCache<string, UserRow['type']>({ max });
  let epoch = 0;
  /** Look-ups asked for or under way, by id: a second miss of the id waits for the same one. */
  const shared = new Map<string, Promise<UserRow | undefined>>();
  const counted = { queries: 0, ids: 0 };

  const evict = (...ids: string[]) => {
    epoch++;
    for (const id of ids) {
      rows.delete(id);
      shared.delete(id);
    }
  };

  /** The misses of one turn of the event loop (the upgrades and calls read in it) as one look-up. */
  const lookUp = batchQueue<string, UserRow | undefined>(
    async (batch) => {
      const ids = [...new Set(batch)];
      counted.queries++;
      counted.ids += ids.length;
      const started = epoch;
      const found = new Map((await loadMany(ids)).map((r) => [r.id, r]));
      return batch.map((id): Settled<UserRow | undefined> => {
        const row = found.get(id);
        if (row) types.set(id, row.type);
        if (row && epoch === started) rows.set(id, row);
        return { ok: true, value: row };
      });
    },
    { max: BATCH_MAX, inFlight: BATCHES_IN_FLIGHT },
  );

  const unlisten = await database.listen(
    USER_CHANGES_CHANNEL,
    (id) => evict(id),
    () => {
      epoch++;
      rows.clear();
      shared.clear();
    },
  );
  return {
    member(id) {
      const cached = rows.get(id);
      if (cached) return Promise.resolve(cached);
      const waiting = shared.get(id);
      if (waiting) return waiting;
      const look = lookUp(id);
      shared.set(id, look);
      const done = () => {
        if (shared.get(id) === look) shared.delete(id);
      };
      look.then(done, done);
      return look;
    },
    lookups: () => ({ ...counted }),
    peek: (id) => rows.get(id),
    evict(...ids) {
      // A member never looked up here may be a pro: told then too.
      const maybePro = ids.some((id) => {
        const type = types.get(id);
        return type === undefined || type === 'pro';
      });
      evict(...ids);
      if (maybePro) onWritten?.();
    },
    // The database may be gone already (it is closed after the app): nothing left to stop then.
    close: () => unlisten().catch(() => undefined),
  };
}

/**
 * Member rows by id in one query, of one text whatever the number of ids
 * (`= any($1)`), so it is a prepared statement that PostgreSQL parses and
 * plans once, where `in (…)` would be new SQL for each batch size.
 */
function defaultLoadMany(database: Database): LoadMany {
  let byIds: { execute(p: { ids: string[] }): Promise<UserRow[]> } | undefined;
  return (ids) => {
    byIds ??= database.db
      .select()
      .from(users)
      .where(
        and(
          sql`${users.id} = any(${sql.placeholder('ids')}::text[])`,
          ne(users.type, 'buyer'),
        ),
      )
      .prepare('user_cache_by_ids');
    return byIds.execute({ ids });
  };
}
