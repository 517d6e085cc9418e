import { and, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import {
  commissionOf,
  type Payment,
  type Statement,
  type Statements,
} from '@proam/contract';
import type { Db } from '../db/database.js';
import { payments, reservations, schedules, users } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import { japanDate } from '../lib/time.js';
import { reservationsIn } from './queries.js';

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
   * Each lesson of the month with its paid participants: reservations that
   * are confirmed and whose current payment is paid (a refunded one no
   * longer counts). `gross` is what those participants paid in lesson fees.
   */
  function paidLessons(month: string, proId?: string) {
    const { from, to } = monthRange(month);
    return db
      .select({
        scheduleId: schedules.id,
        proId: schedules.proId,
        date: schedules.date,
        startTime: schedules.startTime,
        place: schedules.place,
        fee: schedules.fee,
        participants: sql<number>`count(*)::int`,
        gross: sql<number>`sum(${payments.amount})::int`,
      })
      .from(schedules)
      .innerJoin(reservations, reservationsIn(schedules.id, 'confirmed'))
      .innerJoin(
        payments,
        and(
          eq(payments.id, reservations.paymentId),
          eq(payments.status, 'paid'),
        ),
      )
      .where(
        and(
          proId ? eq(schedules.proId, proId) : undefined,
          gte(schedules.date, from),
          lte(schedules.date, to),
          ne(schedules.statusRound, 'cancelled'),
        ),
      )
      .groupBy(schedules.id)
      .orderBy(schedules.date, schedules.startTime, schedules.id);
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

    /** A pro's 売上明細 for `YYYY-MM`; an id that is not a pro's: 404. */
    async statement(proId: string, month: string): Promise<Statement> {
      const [pro] = await db
        .select({ name: users.userName })
        .from(users)
        .where(and(eq(users.id, proId), eq(users.type, 'pro')));
      if (!pro) throw new ApiError('NotFound');
      const lessons = await paidLessons(month, proId);
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
        ...totals(lessons.reduce((sum, l) => sum + l.gross, 0)),
      };
    },

    /** Admins: every pro with a paid participant in `YYYY-MM`, largest payout first. */
    async statements(month: string): Promise<Statements> {
      const lessons = await paidLessons(month);
      const byPro = new Map<
        string,
        { lessons: number; participants: number; gross: number }
      >();
      for (const l of lessons) {
        const sum = byPro.get(l.proId) ?? {
          lessons: 0,
          participants: 0,
          gross: 0,
        };
        sum.lessons++;
        sum.participants += l.participants;
        sum.gross += l.gross;
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
        lessons: s.lessons,
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
