import {
  and,
  desc,
  eq,
  ilike,
  inArray,
  notInArray,
  or,
  sql,
  type Placeholder,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import {
  PgDialect,
  type PgColumn,
  type PgSelect,
  type PgTable,
} from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/database.js';
import { reservations, schedules } from '../db/schema.js';
import type { Page } from '../lib/paging.js';

// Defined beside the database type (db/ sits below repositories); the
// repositories take it from here with the rest of their SQL helpers.
export { rowsOf } from '../db/database.js';

const dialect = new PgDialect();

/** Where each value of a prepared statement goes (`sql.placeholder`). */
export type Placeholders<Key extends string> = {
  readonly [K in Key]: Placeholder<K>;
};

/**
 * A hot statement written in SQL, as a named prepared statement whose
 * planning costs as much as running it: PostgreSQL parses it once per
 * connection and, after a few runs, reuses a generic plan (drizzle sends
 * `execute()`'s SQL unnamed, planned on every call). `build` writes the
 * statement with a placeholder where each value goes; its text is rendered
 * once, on the first call, and each call only fills the values in
 * (rendering drizzle's SQL object for every call cost the hold more of the
 * API's CPU than the rest of its statement's work).
 */
export function preparedStatement<Row, Key extends string>(
  name: string,
  build: (db: Db | Tx, at: Placeholders<Key>) => SQL,
): (db: Db | Tx, values: Record<Key, unknown>) => Promise<Row[]> {
  let query: ReturnType<PgDialect['sqlToQuery']> | undefined;
  return async (db, values) => {
    // Every call names every value (its type says so): the first call's
    // names are the statement's.
    query ??= dialect.sqlToQuery(
      build(
        db,
        Object.fromEntries(
          Object.keys(values).map((key) => [key, sql.placeholder(key)]),
        ) as Placeholders<Key>,
      ),
    );
    const result = (await db._.session
      .prepareQuery(query, undefined, name, false)
      .execute(values)) as { rows: Row[] };
    return result.rows;
  };
}

/**
 * Queries whose SQL depends only on which of their filters are present (their
 * shape, named by a key from a small fixed set), each built once with
 * drizzle's `prepare` and then run with each call's values
 * (`sql.placeholder`). Building drizzle's SQL object and rendering it was a
 * fifth of the API's CPU for a pro search. The statement stays unnamed (''):
 * node-postgres then sends it with each call's values and PostgreSQL plans
 * for them, where a named statement settles on one generic plan after five
 * runs, which is wrong for a search whose best plan depends on how many rows
 * a keyword matches.
 */
export function builtPerShape<Prepared>(): (
  key: string,
  build: () => { prepare(name: string): Prepared },
) => Prepared {
  const built = new Map<string, Prepared>();
  return (key, build) => {
    let prepared = built.get(key);
    if (!prepared) {
      prepared = build().prepare('');
      built.set(key, prepared);
    }
    return prepared;
  };
}

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

/** The row whose `key` is `value` (a primary or unique key), if there is one. */
export async function findBy<Row>(
  db: Db | Tx,
  table: PgTable & { $inferSelect: Row },
  key: PgColumn,
  value: string,
): Promise<Row | undefined> {
  const [row] = await db.select().from(table).where(eq(key, value)).limit(1);
  return row as Row | undefined;
}

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

/** A member's reservation of a lesson (whatever its status, unless `also` narrows it). */
export const reservationOf = (
  scheduleId: string | typeof schedules.id,
  userId: string | SQLWrapper,
  ...also: (SQL | undefined)[]
) =>
  and(
    eq(reservations.scheduleId, scheduleId),
    eq(reservations.userId, userId),
    ...also,
  );

/** The statuses of a reservation that holds a place: a pending hold or a confirmed booking. */
export const ACTIVE: (typeof reservations.$inferSelect)['status'][] = [
  'pending',
  'confirmed',
];

/** A member's reservations that hold a place (narrowed by `also`). */
export const placesHeldBy = (
  userId: string | SQLWrapper,
  ...also: (SQL | undefined)[]
) =>
  and(
    eq(reservations.userId, userId),
    inArray(reservations.status, ACTIVE),
    ...also,
  );

/** A lesson's reservations in one status: its confirmed participants, or its pending holds. */
export const reservationsIn = (
  scheduleId: string | typeof schedules.id,
  status: (typeof reservations.$inferSelect)['status'],
) =>
  and(eq(reservations.scheduleId, scheduleId), eq(reservations.status, status));

/** Lessons still to be held: neither called off nor done. */
export const stillToBeHeld = notInArray(schedules.statusRound, [
  'cancelled',
  'done',
]);

/** What a reservation becomes when the amateur's place is let go: cancelled, nothing owed. */
export const letGo = (now: Date) => ({
  status: 'cancelled' as const,
  paymentStatus: 'none' as const,
  holdExpiresAt: null,
  cancelledAt: now,
});
