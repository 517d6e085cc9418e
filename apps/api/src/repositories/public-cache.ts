import { LRUCache } from 'lru-cache';
import type { Database } from '../db/database.js';

/** Channel of the `public_changed` triggers (migration 0014): the name of a table a statement changed. */
export const PUBLIC_CHANGES_CHANNEL = 'proam_public';

/** The tables whose published reads are cached, as the trigger names them. */
export type PublicTable = 'news' | 'competitions';

/** What a load answers: the value, and the moment it stops being true without any write (a scheduled news item's publication). */
export type Loaded<T> = { value: T; until?: Date | null };

export type PublicCache = {
  /**
   * The answer stored under `key` for `table`, else `load()`'s, kept until
   * the table changes, `ttlMs` passes or the load's own `until`. Concurrent
   * misses of one key share one load.
   */
  read<T>(
    table: PublicTable,
    key: string,
    load: () => Promise<Loaded<T>>,
    now?: Date,
  ): Promise<T>;
  /** Forgets `table`'s answers; our own writers call it right after their commit. */
  changed(table: PublicTable): void;
  /** Loads so far, and answers served from the cache (for tests and the bench). */
  stats(): { loads: number; hits: number };
  close(): Promise<void>;
};

/**
 * How a repository reaches the cache: it reads through it (none inside a
 * transaction, whose reads must see its own writes) and reports each write.
 * Over the database a write has committed when it is reported; in a
 * transaction the report waits for the commit (plugins/repositories.ts).
 */
export type PublicReads = {
  read: PublicCache['read'] | null;
  changed(table: PublicTable): void;
};

type Entry = { value: unknown; until: number };

/**
 * The public site's reads (news, competitions): every visitor asks for the
 * same few pages, and they change when an admin publishes. Kept in this
 * process, by the same rules as the member cache (user-cache.ts):
 * - a statement-level trigger on each table NOTIFYs at commit, so every
 *   instance forgets that table's answers whatever changed it (the app,
 *   another instance, a SQL console);
 * - our own writers also call `changed` after their commit, so an admin reads
 *   their own write at once on this instance;
 * - a load that began before a change is not stored (it may hold the rows
 *   from before the write it raced with);
 * - when the LISTEN connection is re-established everything is forgotten, and
 *   no answer lives longer than `ttlMs` or past its own `until`.
 */
export async function createPublicCache(
  database: Database,
  { max = 2_000, ttlMs = 60_000 }: { max?: number; ttlMs?: number } = {},
): Promise<PublicCache> {
  const entries = new LRUCache<string, Entry>({ max, ttl: ttlMs });
  const epochs: Record<PublicTable, number> = { news: 0, competitions: 0 };
  const loading = new Map<string, Promise<unknown>>();
  const counted = { loads: 0, hits: 0 };

  const changed = (table: PublicTable) => {
    epochs[table]++;
    const prefix = `${table}\0`;
    for (const key of [...entries.keys()])
      if (key.startsWith(prefix)) entries.delete(key);
    for (const key of [...loading.keys()])
      if (key.startsWith(prefix)) loading.delete(key);
  };
  const forgetAll = () => {
    epochs.news++;
    epochs.competitions++;
    entries.clear();
    loading.clear();
  };

  const unlisten = await database.listen(
    PUBLIC_CHANGES_CHANNEL,
    (table) => {
      if (table === 'news' || table === 'competitions') changed(table);
      else forgetAll();
    },
    forgetAll,
  );

  return {
    read<T>(
      table: PublicTable,
      key: string,
      load: () => Promise<Loaded<T>>,
      now = new Date(),
    ): Promise<T> {
      const full = `${table}\0${key}`;
      const hit = entries.get(full);
      if (hit && hit.until > now.getTime()) {
        counted.hits++;
        return Promise.resolve(hit.value as T);
      }
      const waiting = loading.get(full);
      if (waiting) return waiting as Promise<T>;
      const started = epochs[table];
      counted.loads++;
      const look = load().then(({ value, until }) => {
        if (epochs[table] === started)
          entries.set(full, {
            value,
            until: until ? until.getTime() : Number.POSITIVE_INFINITY,
          });
        return value;
      });
      loading.set(full, look);
      const done = () => {
        if (loading.get(full) === look) loading.delete(full);
      };
      look.then(done, done);
      return look;
    },
    changed,
    stats: () => ({ ...counted }),
    // The database may be gone already (it is closed after the app): nothing left to stop then.
    close: () => unlisten().catch(() => undefined),
  };
}
