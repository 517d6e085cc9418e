/**
 * Reads the database of a server from outside it (the API's mail-durability
 * test, pressure checks): one query on a connection of its own. PostgreSQL
 * any time; PGlite only while no server holds its files.
 */
import path from 'node:path';
import { newPglite } from '../apps/api/src/db/pglite.js';
import pg from 'pg';

export type DatabaseAt = {
  /** The server's DATA_DIR, where PGlite keeps its files (pgdata). */
  dataDir: string;
  /** The PostgreSQL database instead, when the server has DATABASE_URL. */
  databaseUrl: string | null;
};

export async function readDatabase<T>(
  at: DatabaseAt,
  sql: string,
): Promise<T[]> {
  if (at.databaseUrl) {
    const c = new pg.Client({ connectionString: at.databaseUrl });
    await c.connect();
    try {
      return (await c.query(sql)).rows as T[];
    } finally {
      await c.end();
    }
  }
  const db = newPglite(path.join(at.dataDir, 'pgdata'));
  try {
    return (await db.query<T>(sql)).rows;
  } finally {
    await db.close();
  }
}
