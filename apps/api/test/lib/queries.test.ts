import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { preparedStatement, rowsOf } from '../../src/repositories/queries.js';
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
