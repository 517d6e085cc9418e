import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, gte, sql } from 'drizzle-orm';
import {
  builtPerShape,
  preparedStatement,
  rowsOf,
} from '../../src/repositories/queries.js';
import { news } from '../../src/db/schema.js';
import { DRIVERS, harness, type Harness } from '../helper.js';

for (const driver of DRIVERS) {
  describe(`preparedStatement (${driver})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(driver);
    });
    after(() => h.close());

    it('answers the rows for each call’s values, rendering the statement once', async () => {
      let renders = 0;
      const doubled = preparedStatement<
        { n: number; doubled: number; label: string },
        'n' | 'label'
      >(`test_doubled_${driver}`, (_db, at) => {
        renders += 1;
        return sql`select ${at.n}::integer as n, ${at.n}::integer * 2 as doubled, ${at.label}::text as label`;
      });
      for (const n of [1, 2, 3, 7]) {
        const rows = await doubled(h.database.db, { n, label: `#${n}` });
        assert.deepEqual(rows, [{ n, doubled: n * 2, label: `#${n}` }]);
      }
      assert.equal(renders, 1);
    });

    it('builds a query once per shape and runs it with each call’s values, unnamed', async () => {
      const db = h.database.db;
      const now = new Date('2026-11-01T00:00:00Z');
      for (const [i, title] of ['一', '二', '三'].entries())
        await db.insert(news).values({
          id: `SHAPE${i}`,
          title,
          body: '本文',
          publishedAt: new Date(now.getTime() + i * 60_000),
          createdAt: now,
          updatedAt: now,
        });
      const ofShape = builtPerShape<{
        execute(values: Record<string, unknown>): Promise<{ title: string }[]>;
      }>();
      let builds = 0;
      const search = (title: string | undefined, since: Date) =>
        ofShape(title ? 'title' : 'all', () => {
          builds += 1;
          return db
            .select({ title: news.title })
            .from(news)
            .where(
              and(
                sql`${news.id} like 'SHAPE%'`,
                gte(news.publishedAt, sql.placeholder('since')),
                title ? eq(news.title, sql.placeholder('title')) : undefined,
              ),
            )
            .orderBy(news.publishedAt);
        }).execute({ since, title });
      assert.deepEqual(await search(undefined, now), [
        { title: '一' },
        { title: '二' },
        { title: '三' },
      ]);
      assert.deepEqual(
        await search(undefined, new Date(now.getTime() + 60_000)),
        [{ title: '二' }, { title: '三' }],
      );
      assert.deepEqual(await search('三', now), [{ title: '三' }]);
      assert.deepEqual(await search('一', now), [{ title: '一' }]);
      assert.equal(builds, 2);
      if (driver === 'postgres') {
        // Unnamed: PostgreSQL plans each call for its values and keeps nothing
        // on the connection (one transaction: one connection for both).
        const kept = await db.transaction(async (tx) => {
          const inTx = builtPerShape<{
            execute(v: Record<string, unknown>): Promise<unknown[]>;
          }>()('one', () =>
            tx
              .select({ title: news.title })
              .from(news)
              .where(eq(news.title, sql.placeholder('title'))),
          );
          assert.equal((await inTx.execute({ title: '二' })).length, 1);
          return rowsOf<{ statement: string }>(
            tx,
            sql`select statement from pg_prepared_statements`,
          );
        });
        assert.ok(
          !kept.some((r) => r.statement.includes('"news"')),
          JSON.stringify(kept),
        );
      }
    });

    if (driver === 'postgres')
      it('names the statement, so PostgreSQL keeps it prepared on the connection', async () => {
        const one = preparedStatement<{ one: number }, 'v'>(
          'test_named',
          (_db, at) => sql`select ${at.v}::integer as one`,
        );
        // One transaction: one connection of the pool for both statements.
        const names = await h.database.db.transaction(async (tx) => {
          assert.deepEqual(await one(tx, { v: 1 }), [{ one: 1 }]);
          return rowsOf<{ name: string }>(
            tx,
            sql`select name from pg_prepared_statements`,
          );
        });
        assert.ok(
          names.some((r) => r.name === 'test_named'),
          JSON.stringify(names),
        );
      });
  });
}
