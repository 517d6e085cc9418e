import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { preparedRowsOf, rowsOf } from '../../src/repositories/queries.js';
import { DRIVERS, harness, type Harness } from '../helper.js';

for (const driver of DRIVERS) {
  describe(`preparedRowsOf (${driver})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(driver);
    });
    after(() => h.close());

    it('answers the rows of the statement, its values as parameters, on every call', async () => {
      for (const n of [1, 2, 3, 7]) {
        const rows = await preparedRowsOf<{ n: number; doubled: number }>(
          h.database.db,
          'test_doubled',
          sql`select ${n}::integer as n, ${n}::integer * 2 as doubled`,
        );
        assert.deepEqual(rows, [{ n, doubled: n * 2 }]);
      }
    });

    if (driver === 'postgres')
      it('names the statement, so PostgreSQL keeps it prepared on the connection', async () => {
        // One transaction: one connection of the pool for both statements.
        const names = await h.database.db.transaction(async (tx) => {
          await preparedRowsOf(
            tx,
            'test_named',
            sql`select ${1}::integer as one`,
          );
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
