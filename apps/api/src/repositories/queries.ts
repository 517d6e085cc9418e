import { desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import type { Page } from '../lib/paging.js';

/** A keyword as an ILIKE pattern: matched anywhere, `%`, `_` and `\` literally. */
export const likePattern = (keyword: string) =>
  `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Rows where any of `columns` contains `keyword` (case-insensitive). */
export const matchesKeyword = (
  keyword: string,
  columns: PgColumn[],
): SQL | undefined => {
  const p = likePattern(keyword);
  return or(...columns.map((c) => ilike(c, p)));
};

/**
 * One page of a list, newest first by `at`; the id breaks ties so that pages
 * neither skip nor repeat rows with the same time.
 */
export const newestFirst = <Q extends PgSelect>(
  query: Q,
  at: PgColumn,
  id: PgColumn,
  page: Page,
) => query.orderBy(desc(at), desc(id)).limit(page.limit).offset(page.offset);

/**
 * Deletes the row whose `key` is `value` and answers how many went (0 or 1).
 * Counted from `returning`, as the two drivers report affected rows differently.
 */
export async function removeBy(
  db: Db,
  table: PgTable,
  key: PgColumn,
  value: string,
): Promise<number> {
  const gone = await db.delete(table).where(eq(key, value)).returning({ key });
  return gone.length;
}
