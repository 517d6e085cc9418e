import { and, desc, eq, gte, inArray, lt, lte, ne, or, sql } from 'drizzle-orm';
import {
  commissionOf,
  type Payment,
  type Statement,
  type Statements,
} from '@proam/contract';
import type { Db } from '../db/database.js';
import {
  payments,
  refunds,
  schedules,
  users,
} from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import { japanDate, japanTime } from '../lib/time.js';

export type PaymentRow = typeof payments.$inferSelect;

/** What a Payment shows of its lesson and pro. */
export type PaymentLesson = {
  date: string;
  startTime: string;
  place: string;
  proId: string;
  proName: string;
};

/**
 * 領収書番号: `R` + the Japan date it was paid (YYYYMMDD) + `-` + the last 8
 * characters of the payment id, upper case (R20261128-7F3K9QXZ). Derived,
 * never stored: the same payment always prints the same number.
 */
export const receiptNoOf = (paymentId: string, paidAt: Date): string =>
  `R${japanDate(paidAt).replaceAll('-', '')}-${paymentId.slice(-8).toUpperCase()}`;

/** A payment as its member sees it; `receiptNo` once money was taken (paid, or refunded after that). */
export function toPayment(row: PaymentRow & PaymentLesson): Payment {
  const wasPaid =
    row.paidAt && (row.status === 'paid' || row.status === 'refunded');
  return {
    reservationId: row.id,
    scheduleId: row.scheduleId,
    date: row.date,
    startTime: row.startTime,
    place: row.place,
    proId: row.proId,
    proName: row.proName,
    amount: row.amount,
    serviceFee: row.serviceFee,
    status: row.status,
    ...(row.paidAt ? { paidAt: row.paidAt.toISOString() } : {}),
    ...(row.refundedAt ? { refundedAt: row.refundedAt.toISOString() } : {}),
    ...(wasPaid && row.paidAt
      ? { receiptNo: receiptNoOf(row.id, row.paidAt) }
      : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The first and last Japan dates of `YYYY-MM`. */
function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return {
    from: `${month}-01`,
    to: `${month}-${String(last).padStart(2, '0')}`,
  };
}

/** A payment's own facts, as every read of payments selects them. */
export const paymentCore = {
  id: payments.id,
  scheduleId: payments.scheduleId,
  userId: payments.userId,
  amount: payments.amount,
  serviceFee: payments.serviceFee,
};

/**
 * The record of money taken: a member's payments (支払い履歴, 領収書) and the
 * pros' monthly statements (売上明細, the admins' 売上・精算). Read only.
 */
export function paymentRecordRepository(db: Db) {
  const selectPayments = () =>
    db
      .select({
        ...paymentCore,
        status: payments.status,
        paymentIntentId: payments.paymentIntentId,
        holdExpiresAt: payments.holdExpiresAt,
        paidAt: payments.paidAt,
        refundedAt: payments.refundedAt,
        failure: payments.failure,
        createdAt: payments.createdAt,
        date: schedules.date,
        startTime: schedules.startTime,
        place: schedules.place,
        proId: schedules.proId,
        proName: users.userName,
      })
      .from(payments)
      .innerJoin(schedules, eq(schedules.id, payments.scheduleId))
      .innerJoin(users, eq(users.id, schedules.proId));

  /**
   * The lines of a month's statement: the lessons held that month with
   * their paid participants — reservations that are confirmed and whose
   * current payment is paid (a refunded one no longer counts).
   *
   * Held: not called off, and started by `now` (its Japan date and start
   * time, as `lessonStart` reads them, at or before `now`). A lesson of the
   * month still to come can yet be called off or cancelled and refunded,
   * so this month counts the lessons held so far; a later month, none.
   *
   * `fee` is the lesson fee those participants paid (`payments.amount`,
   * which leaves out the system fee, kept in `serviceFee`), not the lesson's
   * fee now: a fee edited after payment must not change what was earned.
   * A lesson has one line per amount paid, so `fee × participants` is
   * exactly what the line's participants paid and the lines sum to
   * `grossFee`. A fee cannot be changed once a lesson has an online payment
   * held or paid, so a lesson has one line; two only in data older than that
   * rule (some paid the old fee, some the new).
   */
  function paidLines(month: string, now: Date, proId?: string) {
    const { from, to } = monthRange(month);
    const today = japanDate(now);
    // HH:mm: a lesson starting this minute has started (lessonStart <= now).
    const time = japanTime(now);
    return (
      db
        .select({
          scheduleId: schedules.id,
          proId: schedules.proId,
          date: schedules.date,
          startTime: schedules.startTime,
          place: schedules.place,
          fee: payments.amount,
          participants: sql<number>`count(*)::int`,
        })
        .from(schedules)
        // By the payments, not the reservations: a deleted account's
        // reservations go with it, while what they paid for a lesson held was
        // earned. Paid and not being refunded is a confirmed paid place.
        .innerJoin(
          payments,
          and(
            eq(payments.scheduleId, schedules.id),
            eq(payments.status, 'paid'),
            sql`not exists (select 1 from ${refunds} r where r.payment_id = ${payments.id})`,
          ),
        )
        .where(
          and(
            proId ? eq(schedules.proId, proId) : undefined,
            gte(schedules.date, from),
            lte(schedules.date, to),
            ne(schedules.statusRound, 'cancelled'),
            // Started by now: (date, startTime) ≤ (today, time), in Japan.
            or(
              lt(schedules.date, today),
              and(eq(schedules.date, today), lte(schedules.startTime, time)),
            ),
          ),
        )
        .groupBy(schedules.id, payments.amount)
        .orderBy(
          schedules.date,
          schedules.startTime,
          schedules.id,
          payments.amount,
        )
    );
  }

  /** The commission is taken once, on the month's total (rounded down there, not per lesson). */
  const totals = (grossFee: number) => {
    const commission = commissionOf(grossFee);
    return { grossFee, commission, payout: grossFee - commission };
  };

  return {
    /** The caller's payments, newest first. */
    async list(userId: string, page = 1, size = 20): Promise<Payment[]> {
      const rows = await selectPayments()
        .where(eq(payments.userId, userId))
        .orderBy(desc(payments.createdAt), desc(payments.id))
        .limit(size)
        .offset((page - 1) * size);
      return rows.map(toPayment);
    },

    /** One payment (its id is the `reservationId` of PaymentStart), or undefined. */
    async one(paymentId: string): Promise<Payment | undefined> {
      const [row] = await selectPayments().where(eq(payments.id, paymentId));
      return row ? toPayment(row) : undefined;
    },

    /**
     * A pro's 売上明細 for `YYYY-MM`, the lessons held by `now`; an id that
     * is not a pro's: 404.
     */
    async statement(
      proId: string,
      month: string,
      now: Date,
    ): Promise<Statement> {
      const [pro] = await db
        .select({ name: users.userName })
        .from(users)
        .where(and(eq(users.id, proId), eq(users.type, 'pro')));
      if (!pro) throw new ApiError('NotFound');
      const lessons = await paidLines(month, now, proId);
      return {
        month,
        proId,
        proName: pro.name,
        lessons: lessons.map((l) => ({
          scheduleId: l.scheduleId,
          date: l.date,
          startTime: l.startTime,
          place: l.place,
          fee: l.fee,
          participants: l.participants,
        })),
        ...totals(lessons.reduce((sum, l) => sum + l.fee * l.participants, 0)),
      };
    },

    /**
     * Admins: every pro with a paid participant in a lesson held in
     * `YYYY-MM` by `now` (the lines of `statement`), largest payout first.
     */
    async statements(month: string, now: Date): Promise<Statements> {
      const lines = await paidLines(month, now);
      const byPro = new Map<
        string,
        { lessons: Set<string>; participants: number; gross: number }
      >();
      for (const l of lines) {
        const sum = byPro.get(l.proId) ?? {
          lessons: new Set<string>(),
          participants: 0,
          gross: 0,
        };
        // A lesson of two lines (two amounts paid) is one lesson.
        sum.lessons.add(l.scheduleId);
        sum.participants += l.participants;
        sum.gross += l.fee * l.participants;
        byPro.set(l.proId, sum);
      }
      const names =
        byPro.size === 0
          ? new Map<string, string>()
          : new Map(
              (
                await db
                  .select({ id: users.id, name: users.userName })
                  .from(users)
                  .where(inArray(users.id, [...byPro.keys()]))
              ).map((u) => [u.id, u.name]),
            );
      const pros = [...byPro].map(([proId, s]) => ({
        proId,
        proName: names.get(proId) ?? '',
        lessons: s.lessons.size,
        participants: s.participants,
        ...totals(s.gross),
      }));
      pros.sort(
        (a, b) => b.payout - a.payout || a.proId.localeCompare(b.proId),
      );
      return { month, pros };
    },
  };
}
