/**
 * Shared set-up and read-backs of the route tests: lessons and members made
 * for a test, and rows read straight from the database to check what a call
 * left.
 */
import assert from 'node:assert/strict';
import { and, eq, inArray, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  mailOutbox,
  payments,
  refunds,
  reservations,
  schedules,
  users,
} from '../src/db/schema.js';
import { newId } from '../src/lib/ids.js';
import { reservationOf } from '../src/repositories/queries.js';
import { addDays, japanDate } from '../src/lib/time.js';
import { signAccessToken } from '../src/plugins/auth.js';
import { bearer, type Harness, type MemberSuite } from './helper.js';

/** Every row of `table` whose `column` holds `value`. */
export function rowsWhere<T extends PgTable>(
  h: Harness,
  table: T,
  column: Column,
  value: unknown,
): Promise<T['$inferSelect'][]> {
  return h.database.db
    .select()
    .from(table as PgTable)
    .where(eq(column, value)) as Promise<T['$inferSelect'][]>;
}

/** The outbox rows to `address` whose subject matches. */
export async function mailsTo(h: Harness, address: string, subject: RegExp) {
  const rows = await rowsWhere(h, mailOutbox, mailOutbox.toAddress, address);
  return rows.filter((r) => subject.test(r.subject));
}

/** The outbox rows for a member (by id) whose subject matches. */
export async function memberMails(h: Harness, userId: string, subject: RegExp) {
  const rows = await rowsWhere(h, mailOutbox, mailOutbox.userId, userId);
  return rows.filter((r) => subject.test(r.subject));
}

/** The lesson's row, as the database holds it now. */
export async function scheduleRow(h: Harness, id: string) {
  const [row] = await rowsWhere(h, schedules, schedules.id, id);
  assert.ok(row, `lesson ${id}`);
  return row;
}

/** The member's reservation row of a lesson (whatever its status), as the database holds it now. */
export async function reservationRow(
  h: Harness,
  scheduleId: string,
  userId: string,
) {
  const [row] = await h.database.db
    .select()
    .from(reservations)
    .where(reservationOf(scheduleId, userId));
  return row;
}

/** The payment's row (a hold, paid, failed…), as the database holds it now. */
export async function paymentRow(h: Harness, id: string) {
  const [row] = await rowsWhere(h, payments, payments.id, id);
  assert.ok(row, `payment ${id}`);
  return row;
}

/** The refund owed or made for a payment, if any (there is one at most). */
export async function refundRow(h: Harness, paymentId: string) {
  const [row] = await rowsWhere(h, refunds, refunds.paymentId, paymentId);
  return row;
}

/** The lesson's reservations that hold a place (pending or confirmed). */
export function heldReservations(h: Harness, scheduleId: string) {
  return h.database.db
    .select()
    .from(reservations)
    .where(
      and(
        eq(reservations.scheduleId, scheduleId),
        inArray(reservations.status, ['pending', 'confirmed']),
      ),
    );
}

export type LessonFields = {
  /** Days from today (Japan time), or a date. */
  date: number | string;
  place: string;
  startTime?: string;
  endTime?: string;
  capacity?: number;
  fee?: number;
};

/** A lesson `pro` creates through the API (09:00–12:00, 2 places, ¥10,000 unless told). */
export async function createLesson(
  suite: MemberSuite,
  pro: string,
  { date, ...over }: LessonFields,
): Promise<{ id: string }> {
  const r = await suite.post(pro, '/schedule/create', {
    date: typeof date === 'number' ? addDays(japanDate(), date) : date,
    startTime: '09:00',
    endTime: '12:00',
    capacity: 2,
    fee: 10000,
    ...over,
  });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return r.json.body as { id: string };
}

/**
 * A lesson of `pro` that `amateurs` took, dated `date` once booked (a past
 * date, for what comes after the fact: reviews, statistics).
 */
export async function tookPart(
  suite: MemberSuite,
  pro: string,
  date: string,
  amateurs: string[],
  over: Partial<LessonFields> = {},
) {
  // Created for late today (a past date is refused), then moved to `date`.
  const { id } = await createLesson(suite, pro, {
    date: 0,
    startTime: '23:00',
    endTime: '23:30',
    place: '口コミテスト倶楽部',
    capacity: 4,
    ...over,
  });
  for (const a of amateurs)
    await suite.expect(a, '/schedule/reserve', { id }, 200);
  await suite.h.database.db
    .update(schedules)
    .set({ date })
    .where(eq(schedules.id, id));
  return id;
}

/**
 * `n` amateurs of the test's own, written straight into the table so the
 * seeded members keep their state; each with call options bearing its token.
 */
export async function extraAmateurs(h: Harness, n: number, tag: string) {
  const made = Array.from({ length: n }, (_, i) => ({ id: newId(), i }));
  await h.database.db.insert(users).values(
    made.map(({ id, i }) => ({
      id,
      type: 'amature' as const,
      email: `${tag}-${i}@example.jp`,
      passwordHash: 'x',
      userName: `${tag} ${i}`,
    })),
  );
  return made.map(({ id }) => ({
    id,
    auth: bearer(signAccessToken(h.app, { id, type: 'amature' })),
  }));
}

/** Each row's `keys` in order, so a list is checked against a table in one assertion. */
export const columns = <T, K extends keyof T>(
  rows: readonly T[],
  keys: readonly K[],
): T[K][][] => rows.map((row) => keys.map((k) => row[k]));
