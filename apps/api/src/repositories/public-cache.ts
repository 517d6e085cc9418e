import { LRUCache } from 'lru-cache';
import type { Database } from '../db/database.js';

/** Channel of the `public_changed` triggers (migration 0014): the name of a table a statement changed. */
export const PUBLIC_CHANGES_CHANNEL = 'proam_public';

/**
 * What a cached answer depends on, as the triggers name it: the public site's
 * tables, and for the pro search its pros (`users` rows of pros, migration
 * 0017), lessons and blocks.
 */
export type PublicTable =
  'news' | 'competitions' | 'pros' | 'schedules' | 'blocks';
const TABLES: readonly PublicTable[] = [
  'news',
  'competitions',
  'pros',
  'schedules',
  'blocks',
];

/** What a load answers: the value, and the moment it stops being true without any write (a scheduled news item's publication). */
export type Loaded<T> = { value: T; until?: Date | null };

export type PublicCache = {
  /**
   * The answer stored under `key` for `tables`, else `load()`'s, kept until
   * one of the tables changes, `ttlMs` passes or the load's own `until`.
   * Concurrent misses of one key share one load.
   */
  read<T>(
    tables: PublicTable | readonly PublicTable[],
    key: string,
    load: () => Promise<Loaded<T>>,
    now?: Date,
  ): Promise<T>;
  /** Forgets `table`'s answers; our own writers call it right after their commit. */
  changed(table: PublicTable): void;
  /** Loads so far, answers served from the cache, and the rows held now (tests, the bench, /metrics). */
  stats(): { loads: number; hits: number; rows: number };
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

type Entry = { value: unknown; until: number; tables: readonly PublicTable[] };

/**
 * Reads every caller shares: the public site's (news, competitions), which
 * every visitor asks for and an admin changes now and then, and the pro
 * search's pages, which change with a pro's profile, a lesson or a block.
 * Kept in this process, by the same rules as the member cache (user-cache.ts):
 * - triggers NOTIFY at commit (migrations 0014, 0017, 0020), so every instance
 *   forgets the answers that depend on what changed, whatever changed it (the
 *   app, another instance, a SQL console);
 * - our own writers also call `changed` after their commit, so a writer reads
 *   their own write at once on this instance;
 * - a load that began before a change of one of its tables is not stored (it
 *   may hold the rows from before the write it raced with);
 * - when the LISTEN connection is re-established everything is forgotten, and
 *   no answer lives longer than `ttlMs` or past its own `until`.
 * Bounded by `maxRows`: an answer that is a list or a set counts its size (a
 * page of 20 pros weighs what 20 single answers do). An answer that weighs
 * more than the bound is never stored, so every read loads it again: a loader
 * whose answer grows with the data must keep it well below (user-repository.ts,
 * the members in a block).
 */
export async function createPublicCache(
  database: Database,
  {
    maxRows = 10_000,
    ttlMs = 60_000,
  }: { maxRows?: number; ttlMs?: number } = {},
): Promise<PublicCache> {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxRows,
    sizeCalculation: ({ value }) =>
      Array.isArray(value)
        ? value.length + 1
        : value instanceof Set
          ? value.size + 1
          : 1,
    ttl: ttlMs,
  });
  const epochs = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<
    PublicTable,
    number
  >;
  const loading = new Map<
    string,
    { look: Promise<unknown>; tables: readonly PublicTable[] }
  >();
  const counted = { loads: 0, hits: 0 };

  const changed = (table: PublicTable) => {
    epochs[table]++;
    // A copy first: lru-cache's own iterators do not survive a deletion.
    for (const [key, entry] of [...entries.entries()])
      if (entry.tables.includes(table)) entries.delete(key);
    for (const [key, { tables }] of loading)
      if (tables.includes(table)) loading.delete(key);
  };
  const forgetAll = () => {
    for (const table of TABLES) epochs[table]++;
    entries.clear();
    loading.clear();
  };
  const isTable = (name: string): name is PublicTable =>
    (TABLES as readonly string[]).includes(name);

  const unlisten = await database.listen(
    PUBLIC_CHANGES_CHANNEL,
    (table) => {
      if (isTable(table)) changed(table);
      else forgetAll();
    },
    forgetAll,
  );

  return {
    read<T>(
      on: PublicTable | readonly PublicTable[],
      key: string,
      load: () => Promise<Loaded<T>>,
      now = new Date(),
    ): Promise<T> {
      const tables: readonly PublicTable[] = typeof on === 'string' ? [on] : on;
      const full = `${tables.join('+')}\0${key}`;
      const hit = entries.get(full);
      if (hit && hit.until > now.getTime()) {
        counted.hits++;
        return Promise.resolve(hit.value as T);
      }
      const waiting = loading.get(full);
      if (waiting) return waiting.look as Promise<T>;
      const started = tables.map((t) => epochs[t]);
      counted.loads++;
      const look = load().then(({ value, until }) => {
        if (tables.every((t, i) => epochs[t] === started[i]))
          entries.set(full, {
            value,
            until: until ? until.getTime() : Number.POSITIVE_INFINITY,
            tables,
          });
        return value;
      });
      loading.set(full, { look, tables });
      const done = () => {
        if (loading.get(full)?.look === look) loading.delete(full);
      };
      look.then(done, done);
      return look;
    },
    changed,
    stats: () => ({ ...counted, rows: entries.calculatedSize }),
    // The database may be gone already (it is closed after the app): nothing left to stop then.
    close: () => unlisten().catch(() => undefined),
  };
}
