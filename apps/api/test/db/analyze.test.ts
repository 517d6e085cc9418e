import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { newPglite, type PGlite } from '../../src/db/pglite.js';
import {
  analyzeChangedTables,
  fromPglite,
  migrateDatabase,
} from '../../src/db/database.js';

describe('statistics on PGlite (no autovacuum): analysed at start only where they are missing or stale', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'proam-analyze-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const reltuples = async (client: PGlite, table: string) =>
    (
      await client.query<{ n: number }>(
        `select reltuples::int as n from pg_class where relname = $1`,
        [table],
      )
    ).rows[0]!.n;

  it('analyses the tables never analysed, then none, then one that grew', async () => {
    let client = newPglite(path.join(dir, 'pgdata'));
    await client.waitReady;
    // Migrations analyse what they created, so a second look finds nothing.
    await migrateDatabase(fromPglite(client));
    assert.deepEqual(await analyzeChangedTables(client), []);
    await client.exec(
      `insert into news (id, title, body, published_at, created_at, updated_at)
       select 'N' || i, 't', repeat('本文', 200), now(), now(), now()
       from generate_series(1, 2000) i`,
    );
    assert.ok((await reltuples(client, 'news')) < 2000);
    await client.close();
    // The statistics and the page counts they were taken at outlive the process.
    client = newPglite(path.join(dir, 'pgdata'));
    await client.waitReady;
    assert.deepEqual(await analyzeChangedTables(client), ['public.news']);
    assert.equal(await reltuples(client, 'news'), 2000);
    assert.deepEqual(await analyzeChangedTables(client), []);
    await client.close();
  });
});
