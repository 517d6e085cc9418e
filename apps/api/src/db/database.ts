import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { newPglite, type PGlite } from './pglite.js';
import * as schema from './schema.js';
import { API_ROOT } from '../paths.js';

/** The one database type the repositories see, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle, usable wherever a `Db` is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Queries waiting for a connection (PostgreSQL's pool); PGlite runs them in turn and says 0. */
  queued(): number;
  /**
   * Connections for the metrics: PostgreSQL's pool as it stands; PGlite is one
   * connection running one operation at a time, so `inUse` is 0 or 1 and
   * `waiting` the operations queued behind it (unlike `queued()`, which
   * shedding reads and which stays 0 there).
   */
  poolStats(): PoolStats;
  close(): Promise<void>;
  /** The PostgreSQL URL, so a second instance (tests, tools) can join the same database. */
  url?: string;
  /** The PGlite instance, so tests can clone a migrated template. */
  pglite?: PGlite;
  /**
   * PostgreSQL LISTEN/NOTIFY: on PostgreSQL it crosses API instances; on
   * PGlite it stays in this process, which is the only one on that folder.
   */
  notify(channel: string, payload: string): Promise<void>;
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    /** Called after a dropped LISTEN connection is back: notifications in between are lost. */
    onResubscribed?: () => void,
  ): Promise<() => Promise<void>>;
};

export type PoolStats = {
  /** Connections the pool may open. */
  max: number;
  /** Connections open now (in use or idle). */
  open: number;
  inUse: number;
  /** Queries waiting for a connection. */
  waiting: number;
};

export const MIGRATIONS_FOLDER = path.join(API_ROOT, 'drizzle');

export function fromPglite(client: PGlite): Database {
  // PGlite keeps its queue private: count the top-level calls not yet settled
  // (a transaction's own queries run inside it and are not counted again).
  let pending = 0;
  const counted =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      pending++;
      try {
        return await run(...args);
      } finally {
        pending--;
      }
    };
  client.query = counted(client.query.bind(client)) as typeof client.query;
  client.exec = counted(client.exec.bind(client));
  client.transaction = counted(client.transaction.bind(client));
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    pglite: client,
    ping: async () => {
      await client.query('select 1');
    },
    queued: () => 0,
    poolStats: () => ({
      max: 1,
      open: 1,
      inUse: pending > 0 ? 1 : 0,
      waiting: Math.max(0, pending - 1),
    }),
    close: () => client.close(),
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, onPayload);
      return () => stop();
    },
  };
}

export async function openPglite(dataDir?: string): Promise<Database> {
  const client = newPglite(dataDir);
  await client.waitReady;
  return fromPglite(client);
}

export function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Bounded work per request (docs/security.md RL-04): a runaway query is cancelled.
    statement_timeout: 5_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const listeners = new Set<pg.Client>();
  let closed = false;
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    url,
    ping: async () => {
      await pool.query('select 1');
    },
    queued: () => pool.waitingCount,
    poolStats: () => ({
      max,
      open: pool.totalCount,
      inUse: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: async () => {
      closed = true;
      await Promise.all(
        [...listeners].map((l) => l.end().catch(() => undefined)),
      );
      await pool.end();
    },
    notify: async (channel, payload) => {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: async (channel, onPayload, onResubscribed) => {
      // LISTEN needs a connection of its own for as long as we listen; it reconnects if dropped.
      let client: pg.Client | undefined;
      let stopped = false;
      let connections = 0;
      const connect = async (): Promise<void> => {
        if (stopped || closed) return;
        const c = new pg.Client({ connectionString: url });
        c.on('notification', (n) => {
          if (n.channel === channel && n.payload !== undefined)
            onPayload(n.payload);
        });
        c.on('error', () => {
          listeners.delete(c);
          void c.end().catch(() => undefined);
          setTimeout(() => void connect().catch(() => undefined), 1000).unref();
        });
        await c.connect();
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = c;
        listeners.add(c);
        if (connections++ > 0) onResubscribed?.();
      };
      await connect();
      return async () => {
        stopped = true;
        if (client) {
          listeners.delete(client);
          await client.end().catch(() => undefined);
        }
      };
    },
  };
}

export async function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string;
}): Promise<Database> {
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl)
    : openPglite(path.join(opts.dataDir, 'pgdata'));
}

export async function migrateDatabase(database: Database): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  if (database.driver === 'pglite') {
    await migratePglite(database.db as never, config);
    await analyzeChangedTables(database.pglite!);
  } else {
    await migratePg(database.db as never, config);
  }
}

/**
 * The rows of a statement written in SQL: both drivers answer `{ rows }`
 * (node-postgres' QueryResult, PGlite's Results), but their execute() types
 * differ, so the shape is named here once.
 */
export async function rowsOf<Row>(db: Db | Tx, query: SQL): Promise<Row[]> {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the two drivers' execute() types differ; both answer { rows }
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/**
 * Whether the pro search's trigram index is missing: migration 0019 leaves it
 * out where pg_trgm cannot be installed, and its notice reaches no log, so the
 * server says so at every start (the README has the two statements that add it).
 */
export async function trigramIndexMissing(db: Db | Tx): Promise<boolean> {
  const found = await rowsOf<{ one: number }>(
    db,
    // The app's own (resolved through its search path), and usable: a
    // CREATE INDEX CONCURRENTLY that failed leaves an invalid one.
    sql`select 1 as one from pg_index
         where indexrelid = to_regclass('pro_search_text_trgm_idx') and indisvalid`,
  );
  return found.length === 0;
}

/**
 * PGlite runs no autovacuum (nor the statistics collector that drives it), so
 * the planner would never get statistics otherwise. Statistics are kept in
 * the data folder, so only the tables never analysed, or whose size moved by
 * more than a tenth since (as autovacuum's own threshold does, by pages here),
 * are analysed at start: a whole `analyze` took 0.3 s of every start.
 */
export async function analyzeChangedTables(client: PGlite): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and (c.reltuples < 0
          or abs(pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages)
             > 1 + c.relpages / 10)`,
  );
  const names = rows.map((r) => r.name);
  if (names.length) await client.exec(`analyze ${names.join(', ')}`);
  return names;
}

/** `count(*)` is a number on PGlite and a string on `pg`: convert in one place. */
export const toInt = (v: unknown): number => Number(v ?? 0);

export const countSql = sql<number>`count(*)`.mapWith(toInt);
