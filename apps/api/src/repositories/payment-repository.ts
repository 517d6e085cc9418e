import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { HOLDS_PER_MEMBER_MAX } from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import {
  payments,
  reservations,
  schedules,
  stripeEvents,
  users,
} from '../db/schema.js';
import { findBy, letGo, reservationOf } from './queries.js';
import { ApiError } from '../lib/api-error.js';
import { settle, type Settled } from '../lib/batch-queue.js';
import { japanDate } from '../lib/time.js';
import {
  outboxRepository,
  outboxRows,
  type OutboxMail,
} from './outbox-repository.js';
import { queueRefund } from './refund-repository.js';
import {
  holdFirstPlace,
  holdPlace,
  leaveLine,
  lessonStart,
  noEffects,
  releaseHold,
  releasePlace,
  takePlace,
  whyNoPlace,
  type PaymentEffects,
  type PaymentRow,
  type PlaceRules,
} from './schedule-repository.js';

/** What settling needs of a PaymentIntent (a webhook's object, or one retrieved from Stripe). */
export type PaidIntent = Pick<
  Stripe.PaymentIntent,
  'id' | 'amount' | 'currency' | 'metadata'
>;

/** A verified Stripe event (named here so the repositories' type can name it). */
export type StripeEvent = Stripe.Event;

/** What settling a paid PaymentIntent did (`ignored`: not one of our payments' intents). */
export type SettleOutcome = 'ignored' | 'unchanged' | 'confirmed' | 'late';

/**
 * What a Stripe event did: `duplicate` when its id was handled before
 * (nothing changed); `settled` what a payment_intent.succeeded did.
 */
export type EventOutcome = {
  duplicate: boolean;
  settled?: SettleOutcome;
  effects: PaymentEffects;
};

/**
 * A start that found no place (`ScheduleFull`, or `Conflict` for a lesson
 * no longer open): answered as that error once `effects` (holds it let go
 * meanwhile, committed) have been carried out.
 */
export type StartRefused = {
  refused: 'ScheduleFull' | 'Conflict';
  effects: PaymentEffects;
};

/** A hold, and what was let go on the way (`effects`). */
export type StartedHold = {
  payment: PaymentRow;
  effects: PaymentEffects;
};

/**
 * Whether the intent is the one this payment made: the hold's id in its
 * metadata, and the amount and currency the hold asked for. Anything else is
 * not ours to act on (logged by the caller, never trusted).
 */
function matches(p: PaymentRow, pi: PaidIntent): boolean {
  return (
    (p.paymentIntentId === null || p.paymentIntentId === pi.id) &&
    pi.amount === p.amount + p.serviceFee &&
    pi.currency === 'jpy'
  );
}

/** The payment named by an intent's metadata, if the intent is really its. */
async function paymentOf(
  tx: Tx,
  pi: PaidIntent,
): Promise<PaymentRow | undefined> {
  const id = pi.metadata?.paymentId;
  if (!id) return undefined;
  const [p] = await tx.select().from(payments).where(eq(payments.id, id));
  return p && matches(p, pi) ? p : undefined;
}

/**
 * Locks the lesson of payment `paymentId` (the lesson first, as every change
 * of places does) and answers it with the facts its mails name; none when
 * there is no such payment.
 */
async function lockLessonOfPayment(tx: Tx, paymentId: string) {
  const [row] = await tx
    .select({
      lesson: schedules,
      proName: users.userName,
      proEmail: users.email,
    })
    .from(schedules)
    .innerJoin(users, eq(users.id, schedules.proId))
    .where(
      eq(
        schedules.id,
        sql`(select ${payments.scheduleId} from ${payments} where ${payments.id} = ${paymentId})`,
      ),
    )
    .for('update', { of: schedules })
    .prepare('lock_lesson_of_payment')
    .execute();
  return row;
}

/**
 * Payments with the amateur's reservation of the lesson and the amateur
 * (none when the account was deleted): what settling reads, for the caller
 * to narrow and lock.
 */
const paymentsWithPlaces = (tx: Tx) =>
  tx
    .select({
      payment: payments,
      reservation: reservations,
      member: { name: users.userName, email: users.email },
    })
    .from(payments)
    .leftJoin(
      reservations,
      and(
        eq(reservations.scheduleId, payments.scheduleId),
        eq(reservations.userId, payments.userId),
      ),
    )
    .leftJoin(users, eq(users.id, payments.userId));

/**
 * The payment locked (its lesson is locked already), with its reservation
 * and amateur. The reservation needs no lock of its own: every change of a
 * reservation holds its lesson's lock.
 */
async function lockPayment(tx: Tx, paymentId: string) {
  const [row] = await paymentsWithPlaces(tx)
    .where(eq(payments.id, paymentId))
    .for('update', { of: payments })
    .prepare('lock_payment')
    .execute();
  return row;
}

type LockedLesson = NonNullable<
  Awaited<ReturnType<typeof lockLessonOfPayment>>
>;
type LockedPayment = NonNullable<Awaited<ReturnType<typeof lockPayment>>>;

/** What a batch locked for one payment before any of its events acted (none: no such payment). */
type Prelocked = { lesson?: LockedLesson; payment?: LockedPayment };

/**
 * The batch form of the two locking reads: the lessons of `paymentIds`
 * locked in id order (so that two batches never wait for each other in a
 * circle), then the payments in id order, with what `lockPayment` answers.
 */
async function lockForBatch(
  tx: Tx,
  paymentIds: string[],
): Promise<Map<string, Prelocked>> {
  const found = new Map<string, Prelocked>(paymentIds.map((id) => [id, {}]));
  if (paymentIds.length === 0) return found;
  const lessons = await tx
    .select({
      paymentId: payments.id,
      lesson: schedules,
      proName: users.userName,
      proEmail: users.email,
    })
    .from(schedules)
    .innerJoin(users, eq(users.id, schedules.proId))
    .innerJoin(payments, eq(payments.scheduleId, schedules.id))
    .where(inArray(payments.id, paymentIds))
    .orderBy(asc(schedules.id))
    .for('update', { of: schedules });
  // After the lessons' locks, in a statement of its own (a fresh snapshot).
  const rows = await paymentsWithPlaces(tx)
    .where(inArray(payments.id, paymentIds))
    .orderBy(asc(payments.id))
    .for('update', { of: payments });
  for (const { paymentId, ...lesson } of lessons)
    found.get(paymentId)!.lesson = lesson;
  for (const row of rows) found.get(row.payment.id)!.payment = row;
  return found;
}

/** A hold paid within its time: what confirming it writes. */
type PaidWithinHold = {
  payment: PaymentRow;
  intentId: string;
  mails: OutboxMail[];
};

/**
 * Confirms holds paid within their time in one statement, however many:
 * each reservation confirmed and paid, each payment recorded, their mails
 * queued. A round trip is most of what a webhook costs, and building the
 * query is most of the rest, so the statement is written out once, its rows
 * passed as two JSON parameters. Only for holds whose lesson and payment the
 * caller has locked and read in this transaction, still pending.
 */
async function writePaidWithinHold(
  tx: Tx,
  paid: PaidWithinHold[],
  now: Date,
): Promise<void> {
  if (paid.length === 0) return;
  const at = now.toISOString();
  const holds = JSON.stringify(
    paid.map(({ payment: p, intentId }) => ({
      payment_id: p.id,
      schedule_id: p.scheduleId,
      user_id: p.userId,
      amount: p.amount,
      service_fee: p.serviceFee,
      intent: intentId,
    })),
  );
  const mails = JSON.stringify(
    outboxRows(
      paid.flatMap((x) => x.mails),
      now,
    ).map((m) => ({
      id: m.id,
      user_id: m.userId,
      category: m.category,
      to_address: m.toAddress,
      reply_to: m.replyTo,
      subject: m.subject,
      body: m.body,
      dedupe_key: m.dedupeKey,
    })),
  );
  await tx.execute(sql`
    with paid as (
      select * from json_to_recordset(${holds}::json) as x(
        payment_id text, schedule_id text, user_id text,
        amount integer, service_fee integer, intent text)
    ),
    confirmed as (
      update reservations r
      set status = 'confirmed', amount = paid.amount,
        service_fee = paid.service_fee, payment_status = 'paid',
        hold_expires_at = null, payment_id = paid.payment_id
      from paid
      where r.schedule_id = paid.schedule_id and r.user_id = paid.user_id
      returning r.user_id
    ),
    recorded as (
      update payments p
      set status = 'paid', paid_at = ${at}::timestamptz,
        payment_intent_id = paid.intent, failure = null
      from paid
      where p.id = paid.payment_id
      returning p.id
    )
    insert into mail_outbox (id, user_id, category, to_address, reply_to,
      subject, body, dedupe_key, next_attempt_at, created_at)
    select id, user_id, category, to_address, reply_to, subject, body,
      dedupe_key, ${at}::timestamptz, ${at}::timestamptz
    from json_to_recordset(${mails}::json) as m(
      id text, user_id text, category text, to_address text, reply_to text,
      subject text, body text, dedupe_key text)
    on conflict do nothing`);
}

/**
 * The money arrived (the webhook's payment_intent.succeeded, or
 * /payment/confirm after asking Stripe): one path for both, in the caller's
 * transaction, the lesson locked first and then the payment. A payment paid
 * or refunded already changes nothing (replays, events out of order). A hold
 * still waiting becomes a confirmed, paid reservation, mailed (予約 to the
 * amateur and the pro, お支払い to the amateur). Money for a hold that was let
 * go takes a place again if there is one; otherwise the payment is recorded
 * paid and refunded in full (reason late): nobody pays for a place they do
 * not have. Answers what happened.
 */
export async function settlePaid(
  tx: Tx,
  pi: PaidIntent,
  now: Date,
  rules: PlaceRules,
  effects: PaymentEffects,
  prelocked?: Prelocked,
  defer?: PaidWithinHold[],
): Promise<SettleOutcome> {
  const id = pi.metadata?.paymentId;
  if (!id) return 'ignored';
  const locked = prelocked
    ? prelocked.lesson
    : await lockLessonOfPayment(tx, id);
  if (!locked) return 'ignored';
  const { lesson } = locked;
  const row = prelocked ? prelocked.payment : await lockPayment(tx, id);
  if (!row || !matches(row.payment, pi)) return 'ignored';
  const { payment: p, reservation: mine, member } = row;
  if (p.status === 'paid' || p.status === 'refunded') return 'unchanged';
  const paid = {
    status: 'confirmed' as const,
    amount: p.amount,
    serviceFee: p.serviceFee,
    paymentStatus: 'paid' as const,
    holdExpiresAt: null,
    paymentId: p.id,
  };
  const settled = {
    status: 'paid' as const,
    paidAt: now,
    paymentIntentId: pi.id,
  };
  const outbox = outboxRepository(tx, rules.appUrl);
  // 予約 to the amateur and the pro, お支払い to the amateur, from what the
  // two locking reads answered.
  const paidMails = async (to: { name: string; email: string }) => {
    const facts = {
      ...lesson,
      proName: locked.proName,
      proEmail: locked.proEmail,
    };
    return [
      ...(await outbox.lessonMails({
        kind: 'reserved',
        scheduleId: lesson.id,
        amateurIds: [p.userId],
        paidOnline: true,
        known: { lesson: facts, people: new Map([[p.userId, to]]) },
      })),
      ...(await outbox.paymentMail({
        kind: 'paid',
        paymentId: p.id,
        now,
        known: {
          payment: { ...p, paidAt: now, reason: null },
          lesson: facts,
          member: to,
        },
      })),
    ];
  };
  if (
    p.status === 'pending' &&
    mine?.status === 'pending' &&
    mine.paymentId === p.id &&
    member
  ) {
    // Paid within the hold, the usual way: the caller's batch writes it with
    // the others (`defer`), or it is written now.
    const settlement = {
      payment: p,
      intentId: pi.id,
      mails: await paidMails(member),
    };
    if (defer) defer.push(settlement);
    else await writePaidWithinHold(tx, [settlement], now);
    return 'confirmed';
  }
  let placed = false;
  if (
    (!mine || mine.status === 'cancelled') &&
    // Not for a lesson already under way, nor for an account deleted meanwhile
    // (no member to hold the place: refunded instead).
    lessonStart(lesson) > now &&
    member
  ) {
    // The hold was let go before the money came: a place again, if one is free.
    const taken = await takePlace(tx, p.scheduleId, japanDate(now), now);
    if (taken.length) {
      await tx
        .insert(reservations)
        .values({
          scheduleId: p.scheduleId,
          userId: p.userId,
          ...paid,
          createdAt: now,
        })
        .onConflictDoUpdate({
          target: [reservations.scheduleId, reservations.userId],
          set: { ...paid, cancelledAt: null, createdAt: now },
        });
      await leaveLine(tx, p.scheduleId, p.userId);
      placed = true;
    }
  }
  await tx
    .update(payments)
    .set({ ...settled, ...(placed ? { failure: null } : {}) })
    .where(eq(payments.id, p.id));
  if (!placed || !member) {
    if (await queueRefund(tx, p.id, 'late', now)) effects.refundsQueued++;
    return 'late';
  }
  await outbox.enqueue(await paidMails(member), now);
  return 'confirmed';
}

/**
 * Online payment's side of the places: holds (/payment/start), what Stripe
 * reports (the webhook, /payment/confirm) and the holds that end. Every
 * change of places runs under the lesson's row lock, as reservations do
 * (schedule-repository.ts), and every call to Stripe happens after COMMIT:
 * the callers get `effects` for that.
 */
export function paymentRepository(db: Db, appUrl: string, paymentsOn = false) {
  const rules: PlaceRules = { appUrl, paymentsOn };

  /** Lets go of the lesson's holds that have ended (the caller holds the lesson's lock); answers how many. */
  async function releaseEnded(
    tx: Tx,
    scheduleId: string,
    now: Date,
    effects: PaymentEffects,
  ): Promise<number> {
    const ended = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.scheduleId, scheduleId),
          eq(payments.status, 'pending'),
          lte(payments.holdExpiresAt, now),
        ),
      );
    for (const e of ended)
      await releaseHold(tx, e.id, 'expired', now, rules, effects);
    return ended.length;
  }

  /**
   * What a fresh event does, in the caller's transaction; a paid intent's
   * settlement uses `prelocked` (what its batch locked and read) when given.
   */
  async function act(
    tx: Tx,
    event: StripeEvent,
    now: Date,
    effects: PaymentEffects,
    prelocked?: Prelocked,
    defer?: PaidWithinHold[],
  ): Promise<EventOutcome> {
    if (event.type === 'payment_intent.succeeded')
      return {
        duplicate: false,
        settled: await settlePaid(
          tx,
          event.data.object,
          now,
          rules,
          effects,
          prelocked,
          defer,
        ),
        effects,
      };
    if (event.type === 'payment_intent.payment_failed') {
      const p = await paymentOf(tx, event.data.object);
      if (p) await releaseHold(tx, p.id, 'declined', now, rules, effects);
    }
    return { duplicate: false, effects };
  }

  async function handleEvent(
    event: StripeEvent,
    now: Date,
  ): Promise<EventOutcome> {
    return db.transaction(async (tx) => {
      const effects = noEffects();
      const fresh = await tx
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type, receivedAt: now })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id })
        .prepare('record_stripe_event')
        .execute();
      if (fresh.length === 0) return { duplicate: true, effects };
      return act(tx, event, now, effects);
    });
  }

  return {
    find(id: string): Promise<PaymentRow | undefined> {
      return findBy(db, payments, payments.id, id);
    },

    /**
     * Holds a place of a lesson paid online for the amateur: the pro
     * verified, no block either way, a fee to pay. The usual case is one
     * statement (`holdFirstPlace`: a free place, none of theirs). Otherwise,
     * in one transaction with the lesson locked first (as a reservation
     * does): a hold of theirs still running is answered again (same payment,
     * so the same PaymentIntent); one that has ended is let go first (its
     * place to the first in line, if anyone waits). Then a place is taken by
     * the reservation's conditional update, never beyond capacity; a full
     * lesson's ended holds give their places back before it is refused. A
     * refusal after such releases (`refused`) still commits them, with their
     * effects.
     */
    async start(
      scheduleId: string,
      userId: string,
      today: string,
      now: Date,
    ): Promise<StartedHold | StartRefused> {
      const effects = noEffects();
      const first = await holdFirstPlace(db, scheduleId, userId, today, now);
      if (!first) throw new ApiError('NotFound');
      if (first.blocked) throw new ApiError('Forbidden');
      if (!first.proVerified || first.fee <= 0) throw new ApiError('Conflict');
      if (first.payment) return { payment: first.payment, effects };
      const attempt = async (
        tx: Tx,
        sweep: boolean,
      ): Promise<StartedHold | StartRefused> => {
        const [found] = await tx
          .select({ lesson: schedules })
          .from(schedules)
          .where(eq(schedules.id, scheduleId))
          .for('update')
          .prepare('start_lock_lesson')
          .execute();
        if (!found) throw new ApiError('NotFound');
        // A statement of its own, after the lock: READ COMMITTED gives it a
        // fresh snapshot, where the locking read's joined rows would be the
        // ones from before a wait for the lock.
        const [mine] = await tx
          .select({
            status: reservations.status,
            held: payments,
          })
          .from(reservations)
          .leftJoin(payments, eq(payments.id, reservations.paymentId))
          .where(reservationOf(scheduleId, userId))
          .prepare('start_reservation')
          .execute();
        if (mine?.status === 'confirmed') throw new ApiError('Conflict');
        const held = mine?.held;
        if (mine?.status === 'pending') {
          if (held?.status === 'pending' && held.holdExpiresAt > now)
            return { payment: held, effects };
          if (held?.status === 'pending')
            // Their own hold has ended: let go as the job would (the place
            // goes to the first in line, if anyone waits), then try afresh.
            await releaseHold(tx, held.id, 'expired', now, rules, effects);
          else {
            // A pending reservation without a pending payment (never left by
            // this code, but not worth a stuck member): let it go.
            const gone = await tx
              .update(reservations)
              .set(letGo(now))
              .where(
                reservationOf(
                  scheduleId,
                  userId,
                  eq(reservations.status, 'pending'),
                ),
              )
              .returning({ u: reservations.userId });
            if (gone.length) await releasePlace(tx, scheduleId, now);
          }
        }
        // As many unpaid holds running as one member may have (counted by
        // holdFirstPlace's statement, before this transaction: two starts at
        // once may pass it together, which the rate limit bounds).
        if (first.holding >= HOLDS_PER_MEMBER_MAX)
          throw new ApiError('Conflict');
        const taken = await takePlace(tx, scheduleId, today, now);
        if (taken.length === 0) {
          // Full of holds some of which have ended: those give their places
          // back (the first in line promoted, as the job would a minute
          // later), then everything is read again.
          if (sweep && (await releaseEnded(tx, scheduleId, now, effects)) > 0)
            return attempt(tx, false);
          return { refused: whyNoPlace(found.lesson, today), effects };
        }
        const payment = await holdPlace(tx, found.lesson, userId, now);
        if (!payment) throw new ApiError('Conflict');
        // Unconditional: leaving the line does not take the lesson's lock.
        await leaveLine(tx, scheduleId, userId);
        return { payment, effects };
      };
      return db.transaction((tx) => attempt(tx, true));
    },

    /**
     * Records holds' PaymentIntents, however many, in one statement (the
     * route gathers the starts that answer at once); the first one recorded
     * for a hold stays (concurrent starts get the same one anyway).
     */
    async setIntents(
      holds: { paymentId: string; intentId: string }[],
    ): Promise<void> {
      if (holds.length === 0) return;
      const rows = JSON.stringify(
        holds.map((x) => ({ id: x.paymentId, intent: x.intentId })),
      );
      await db.execute(sql`
        update payments p set payment_intent_id = x.intent
        from json_to_recordset(${rows}::json) as x(id text, intent text)
        where p.id = x.id and p.payment_intent_id is null`);
    },

    /** /payment/confirm: the intent Stripe says succeeded, settled as the webhook would. */
    async settle(pi: PaidIntent, now: Date) {
      return db.transaction(async (tx) => {
        const effects = noEffects();
        const outcome = await settlePaid(tx, pi, now, rules, effects);
        return { outcome, effects };
      });
    },

    /**
     * One verified Stripe event, once: its id is recorded in the same
     * transaction as what it changes, so a replay changes nothing and a crash
     * half-way leaves it unrecorded for Stripe's retry.
     * payment_intent.succeeded settles the payment; payment_failed lets the
     * hold go (declined); other types are recorded and ignored.
     */
    handleEvent,

    /**
     * `handleEvent` for several events in one transaction (the webhook's
     * group commit): the ids recorded in one statement, the lessons and
     * payments the paid intents name locked in two, then each event acts in
     * its order. A payment that an earlier event of the batch acted on is
     * read afresh. A batch that fails (one event's error, or a deadlock with
     * another instance's batch) is rolled back whole, and each of its events
     * runs again on its own, so that one bad event fails alone.
     */
    async handleEvents(
      events: StripeEvent[],
      now: Date,
    ): Promise<Settled<EventOutcome>[]> {
      const alone = async () => {
        const out: Settled<EventOutcome>[] = [];
        for (const e of events)
          out.push(await settle(() => handleEvent(e, now)));
        return out;
      };
      if (events.length <= 1) return alone();
      try {
        const outcomes = await db.transaction(async (tx) => {
          const ids = [...new Set(events.map((e) => e.id))];
          const fresh = new Set(
            (
              await tx
                .insert(stripeEvents)
                .values(
                  ids.map((id) => ({
                    id,
                    type: events.find((e) => e.id === id)!.type,
                    receivedAt: now,
                  })),
                )
                .onConflictDoNothing()
                .returning({ id: stripeEvents.id })
            ).map((r) => r.id),
          );
          const paid: string[] = [];
          for (const e of events)
            if (
              fresh.has(e.id) &&
              e.type === 'payment_intent.succeeded' &&
              e.data.object.metadata?.paymentId
            )
              paid.push(e.data.object.metadata.paymentId);
          const prelocked = await lockForBatch(tx, [...new Set(paid)].sort());
          // What was read before the first event acted holds for a paid
          // intent whose lesson no earlier event of the batch has acted on;
          // after a decline (which can promote the waitlist anywhere) it
          // holds for none. Otherwise settlement reads afresh.
          const lessonsActedOn = new Set<string>();
          let readsHold = true;
          // Holds paid within their time, confirmed together in one
          // statement: written before any event that reads the database
          // again, so every event still acts on what the ones before it left.
          const paidWithinHold: PaidWithinHold[] = [];
          const write = () =>
            writePaidWithinHold(tx, paidWithinHold.splice(0), now);
          const out: EventOutcome[] = [];
          for (const event of events) {
            const effects = noEffects();
            if (!fresh.delete(event.id)) {
              out.push({ duplicate: true, effects });
              continue;
            }
            let pre: Prelocked | undefined;
            if (event.type === 'payment_intent.succeeded') {
              const id = event.data.object.metadata?.paymentId;
              const read = id ? prelocked.get(id) : undefined;
              const lessonId = read?.lesson?.lesson.id;
              if (readsHold && lessonId && !lessonsActedOn.has(lessonId))
                pre = read;
              if (lessonId) lessonsActedOn.add(lessonId);
            } else if (event.type === 'payment_intent.payment_failed')
              readsHold = false;
            if (!pre) await write();
            out.push(await act(tx, event, now, effects, pre, paidWithinHold));
          }
          await write();
          return out;
        });
        return outcomes.map((value) => ({ ok: true as const, value }));
      } catch {
        return alone();
      }
    },

    /**
     * The scheduled job: every hold that has ended is let go, each in its own
     * transaction (two instances at once let each go once: the second finds
     * it no longer pending). Answers how many were let go.
     */
    async releaseEndedHolds(
      now: Date,
      limit = 200,
    ): Promise<{ released: number; effects: PaymentEffects }> {
      const effects = noEffects();
      const ended = await db
        .select({ id: payments.id })
        .from(payments)
        .where(
          and(eq(payments.status, 'pending'), lte(payments.holdExpiresAt, now)),
        )
        .orderBy(asc(payments.holdExpiresAt))
        .limit(limit);
      let released = 0;
      for (const e of ended)
        if (
          await db.transaction((tx) =>
            releaseHold(tx, e.id, 'expired', now, rules, effects),
          )
        )
          released++;
      return { released, effects };
    },
  };
}
