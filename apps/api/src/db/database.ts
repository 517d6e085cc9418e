import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';

/** The one database type the repositories see, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle, usable wherever a `Db` is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The PGlite instance, so tests can clone a migrated template. */
  pglite?: PGlite;
};

export const MIGRATIONS_FOLDER = path.join(import.meta.dirname, '..', '..', 'drizzle');

export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    pglite: client,
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

export async function openPglite(dataDir?: string): Promise<Database> {
  const client = new PGlite(dataDir);
  await client.waitReady;
  return fromPglite(client);
}

export function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Bounded work per request (SECURITY RL-04): a runaway query is cancelled.
    statement_timeout: 5_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
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
  } else {
    await migratePg(database.db as never, config);
  }
}

/** `count(*)` is a number on PGlite and a string on `pg`: convert in one place. */
export const toInt = (v: unknown): number => Number(v ?? 0);

export const countSql = sql<number>`count(*)`.mapWith(toInt);
