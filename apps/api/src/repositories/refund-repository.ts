import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Refund, RefundListInput, RefundStatus } from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import {
  payments,
  refunds,
  reservations,
  schedules,
  users,
} from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import { newId } from '../lib/ids.js';
import { pageOf } from '../lib/paging.js';
import { outboxRepository } from './outbox-repository.js';

export type RefundReason = 'cancelled' | 'calledOff' | 'late';
export type RefundRow = typeof refunds.$inferSelect;

/** A refund the worker claimed, with what Stripe needs to send it. */
export type ClaimedRefund = RefundRow & { paymentIntentId: string | null };

/** How long a claimed refund is its worker's before another may take it. */
export const REFUND_LEASE_MS = 2 * 60_000;
/** Stripe is asked this many times before the refund waits for an admin. */
export const REFUND_MAX_ATTEMPTS = 6;

const MINUTE = 60_000;
/** 1 min, 5 min, 30 min, 2 h, 6 h, then 6 h: after `attempts` failed tries. */
const BACKOFF_MS = [1, 5, 30, 120, 360].map((m) => m * MINUTE);
export const refundBackoffMs = (attempts: number): number =>
  BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1]!;

/**
 * Owes the member a full refund of a paid payment, in the caller's
 * transaction (the change that makes it owed commits with it). Answers true
 * when a row was added: a payment is refunded at most once.
 */
export async function queueRefund(
  tx: Tx | Db,
  paymentId: string,
  reason: RefundReason,
  now: Date,
): Promise<boolean> {
  const [payment] = await tx
    .select({ amount: payments.amount, serviceFee: payments.serviceFee })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!payment) return false;
  const added = await tx
    .insert(refunds)
    .values({
      id: newId(),
      paymentId,
      // Refunds are in full: the lesson fee and the system fee.
      amount: payment.amount + payment.serviceFee,
      reason,
      status: 'pending',
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id });
  return added.length > 0;
}

/**
 * Refunds owed to members: the admin list and retry, and the worker's side
 * (claim due rows, record what Stripe answered). `appUrl` is for the 返金 mail.
 */
export function refundRepository(db: Db, appUrl: string) {
  const listColumns = {
    id: refunds.id,
    paymentId: refunds.paymentId,
    scheduleId: payments.scheduleId,
    date: schedules.date,
    userId: payments.userId,
    userName: sql<string>`coalesce(${users.userName}, '')`,
    amount: refunds.amount,
    reason: refunds.reason,
    status: refunds.status,
    attempts: refunds.attempts,
    lastError: refunds.lastError,
    stripeRefundId: refunds.stripeRefundId,
    nextAttemptAt: refunds.nextAttemptAt,
    createdAt: refunds.createdAt,
    updatedAt: refunds.updatedAt,
  };
  const selectRefunds = () =>
    db
      .select(listColumns)
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(schedules, eq(schedules.id, payments.scheduleId))
      .leftJoin(users, eq(users.id, payments.userId));
  type ListRow = Awaited<ReturnType<typeof selectRefunds>>[number];

  const toRefund = (r: ListRow): Refund => ({
    id: r.id,
    reservationId: r.paymentId,
    scheduleId: r.scheduleId,
    date: r.date,
    userId: r.userId,
    userName: r.userName,
    amount: r.amount,
    reason: r.reason,
    status: r.status,
    attempts: r.attempts,
    ...(r.lastError ? { lastError: r.lastError } : {}),
    ...(r.stripeRefundId ? { stripeRefundId: r.stripeRefundId } : {}),
    // Only a refund still waiting has a next attempt worth showing.
    ...(r.status === 'pending'
      ? { nextAttemptAt: r.nextAttemptAt.toISOString() }
      : {}),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  });

  return {
    /** Admins: newest first, optionally one status. */
    async list(input: RefundListInput): Promise<Refund[]> {
      const { limit, offset } = pageOf(input, 50);
      const rows = await selectRefunds()
        .where(input.status ? eq(refunds.status, input.status) : undefined)
        .orderBy(desc(refunds.createdAt), desc(refunds.id))
        .limit(limit)
        .offset(offset);
      return rows.map(toRefund);
    },

    async one(id: string): Promise<Refund | undefined> {
      const [row] = await selectRefunds().where(eq(refunds.id, id));
      return row ? toRefund(row) : undefined;
    },

    /**
     * Admins: a failed (or waiting) refund is due now again, its attempts
     * counted afresh. A succeeded one cannot be retried (409), an unknown id 404.
     */
    async retry(id: string, now: Date): Promise<Refund> {
      const [row] = await db
        .update(refunds)
        .set({
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          updatedAt: now,
        })
        .where(
          and(
            eq(refunds.id, id),
            inArray(refunds.status, ['pending', 'failed']),
          ),
        )
        .returning({ id: refunds.id });
      if (!row) {
        const [exists] = await db
          .select({ id: refunds.id })
          .from(refunds)
          .where(eq(refunds.id, id));
        throw new ApiError(exists ? 'Conflict' : 'NotFound');
      }
      return (await this.one(id))!;
    },

    /**
     * Takes up to `limit` due refunds for this worker, pushing their next
     * attempt out by the lease, so a worker that dies mid-call leaves them to
     * the next round. SKIP LOCKED: several instances never claim the same row.
     */
    async claimDue(now: Date, limit: number): Promise<ClaimedRefund[]> {
      return db.transaction(async (tx) => {
        const due = await tx
          .select({ id: refunds.id })
          .from(refunds)
          .where(
            and(
              eq(refunds.status, 'pending'),
              sql`${refunds.nextAttemptAt} <= ${now}`,
            ),
          )
          .orderBy(refunds.nextAttemptAt)
          .limit(limit)
          .for('update', { skipLocked: true });
        if (due.length === 0) return [];
        const claimed = await tx
          .update(refunds)
          .set({ nextAttemptAt: new Date(now.getTime() + REFUND_LEASE_MS) })
          .where(
            inArray(
              refunds.id,
              due.map((d) => d.id),
            ),
          )
          .returning();
        const intents = await tx
          .select({ id: payments.id, pi: payments.paymentIntentId })
          .from(payments)
          .where(
            inArray(
              payments.id,
              claimed.map((c) => c.paymentId),
            ),
          );
        const piOf = new Map(intents.map((p) => [p.id, p.pi]));
        return claimed.map((c) => ({
          ...c,
          paymentIntentId: piOf.get(c.paymentId) ?? null,
        }));
      });
    },

    /**
     * Stripe refunded it: the refund, the payment and the reservation (when
     * it still points at this payment) say so, and the member is mailed, in
     * one transaction. A refund already settled (another worker) is left alone.
     */
    async markSucceeded(
      refund: Pick<RefundRow, 'id' | 'paymentId'>,
      stripeRefundId: string,
      now: Date,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        // The lesson first, as every path that touches its reservations and
        // refunds locks it (/schedule/cancel holds it while queueing a refund):
        // the same order everywhere, so the two never deadlock.
        await tx.execute(
          sql`select 1 from ${schedules} where ${schedules.id} = (select ${payments.scheduleId} from ${payments} where ${payments.id} = ${refund.paymentId}) for update`,
        );
        const [done] = await tx
          .update(refunds)
          .set({
            status: 'succeeded',
            stripeRefundId,
            lastError: null,
            updatedAt: now,
          })
          // A refund marked failed while Stripe was still answering (a lease
          // that ran out) was sent all the same: Stripe's answer wins.
          .where(
            and(
              eq(refunds.id, refund.id),
              inArray(refunds.status, ['pending', 'failed']),
            ),
          )
          .returning({ id: refunds.id });
        if (!done) return false;
        await tx
          .update(payments)
          .set({ status: 'refunded', refundedAt: now })
          .where(eq(payments.id, refund.paymentId));
        await tx
          .update(reservations)
          .set({ paymentStatus: 'refunded' })
          .where(eq(reservations.paymentId, refund.paymentId));
        await outboxRepository(tx, appUrl).paymentNotice({
          kind: 'refunded',
          paymentId: refund.paymentId,
          now,
        });
        return true;
      });
    },

    /**
     * Stripe refused (or could not be reached): counted, Stripe's message
     * kept, tried again after a backoff; after the last attempt the refund
     * waits as `failed` for an admin. Answers the status it is left in.
     */
    async markFailed(
      refund: Pick<RefundRow, 'id' | 'attempts'>,
      error: string,
      now: Date,
    ): Promise<RefundStatus> {
      const attempts = refund.attempts + 1;
      const status: RefundStatus =
        attempts >= REFUND_MAX_ATTEMPTS ? 'failed' : 'pending';
      await db
        .update(refunds)
        .set({
          attempts,
          status,
          lastError: error.slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + refundBackoffMs(attempts)),
          updatedAt: now,
        })
        .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')));
      return status;
    },

    /** When the next waiting refund is due, so an idle worker sleeps until then. */
    async nextDue(): Promise<Date | null> {
      const [row] = await db
        .select({ at: refunds.nextAttemptAt })
        .from(refunds)
        .where(eq(refunds.status, 'pending'))
        .orderBy(refunds.nextAttemptAt)
        .limit(1);
      return row?.at ?? null;
    },
  };
}
