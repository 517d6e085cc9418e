import {
  and,
  asc,
  count,
  eq,
  gte,
  inArray,
  lte,
  ne,
  notInArray,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  HOLD_MINUTES,
  HOLDS_PER_MEMBER_MAX,
  mayCancelOn,
  SERVICE_FEE,
  type MyReservation,
  type Schedule,
  type ScheduleCreateInput,
  type ScheduleUpdateInput,
  type StatusRound,
} from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import {
  payments,
  reservations,
  schedules,
  users,
  waitlist,
} from '../db/schema.js';
import {
  builtPerShape,
  findBy,
  ACTIVE,
  placesHeldBy,
  reservationOf,
  reservationsIn,
  letGo,
  preparedStatement,
  stillToBeHeld,
} from './queries.js';
import { ApiError } from '../lib/api-error.js';
import { newId } from '../lib/ids.js';
import { japanDate } from '../lib/time.js';
import { notBlockedWith } from './moderation-repository.js';
import { outboxRepository } from './outbox-repository.js';
import { queueRefund } from './refund-repository.js';

export type ScheduleRow = typeof schedules.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

/**
 * What moving places needs to know: where mails link to, and whether
 * payments are on (then a lesson with a fee is paid online: a promotion
 * gives a hold, not a confirmed place).
 */
export type PlaceRules = { appUrl: string; paymentsOn: boolean };

/**
 * What a committed change leaves for Stripe, done after COMMIT (never an HTTP
 * call under a lesson's lock): PaymentIntents of released holds to cancel,
 * and how many refunds were queued (the refund worker is kicked).
 */
export type PaymentEffects = { cancelIntents: string[]; refundsQueued: number };
export const noEffects = (): PaymentEffects => ({
  cancelIntents: [],
  refundsQueued: 0,
});

/** Why a hold was let go (payments.failure). */
export type HoldFailure = 'declined' | 'expired' | 'cancelled' | 'calledOff';

/** Whether this lesson is paid online (payments on and a fee to pay). */
export const paidOnline = (rules: PlaceRules, fee: number): boolean =>
  rules.paymentsOn && fee > 0;

/** When a hold taken now ends. */
export const holdUntil = (now: Date): Date =>
  new Date(now.getTime() + HOLD_MINUTES * 60_000);

type Viewer = { id: string; type: string };
type ReservationRow = typeof reservations.$inferSelect;

/** What a lesson's answer adds to its row: who is in it and who waits. */
export type LessonPeople = {
  /** Confirmed amateurs, in booking order. */
  participants: string[];
  waitlistCount: number;
  /** The viewer's rank in the waitlist, 1-based. */
  waitlistPosition?: number;
  /** The viewer's reservation, whatever its status. */
  mine?: ReservationRow;
};

/** A lesson's start as an instant: its date and time are Japan time. */
export const lessonStart = (r: Pick<ScheduleRow, 'date' | 'startTime'>) =>
  new Date(`${r.date}T${r.startTime}:00+09:00`);

/** A lesson may be called off until it starts, and never once held (`done`). */
const mayCallOff = (
  r: Pick<ScheduleRow, 'date' | 'startTime' | 'statusRound'>,
  now: Date,
) => r.statusRound !== 'done' && lessonStart(r) > now;

function toMyReservation(r: ReservationRow): MyReservation {
  return {
    status: r.status,
    amount: r.amount,
    serviceFee: r.serviceFee,
    paymentStatus: r.paymentStatus,
    ...(r.holdExpiresAt
      ? { holdExpiresAt: r.holdExpiresAt.toISOString() }
      : {}),
  };
}

/** Participants are shown only to the pro, a participant, or an admin (docs/api.md). */
export function toSchedule(
  r: ScheduleRow,
  people: LessonPeople,
  viewer: Viewer,
): Schedule {
  const { participants } = people;
  const maySee =
    viewer.type === 'admin' ||
    viewer.id === r.proId ||
    participants.includes(viewer.id);
  return {
    id: r.id,
    proId: r.proId,
    date: r.date,
    startTime: r.startTime,
    endTime: r.endTime,
    place: r.place,
    ...(r.area ? { area: r.area } : {}),
    capacity: r.capacity,
    fee: r.fee,
    ...(r.note ? { note: r.note } : {}),
    statusRound: r.statusRound,
    ...(maySee ? { participants } : {}),
    reservedCount: r.reservedCount,
    waitlistCount: people.waitlistCount,
    ...(people.waitlistPosition
      ? { waitlistPosition: people.waitlistPosition }
      : {}),
    ...(r.callOffReason ? { callOffReason: r.callOffReason } : {}),
    ...(people.mine ? { myReservation: toMyReservation(people.mine) } : {}),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const CLOSED: StatusRound[] = ['cancelled'];

/** A pro's lessons on one date (narrowed by `also`). */
const proDay = (proId: string, date: string, ...also: (SQL | undefined)[]) =>
  and(eq(schedules.proId, proId), eq(schedules.date, date), ...also);

/**
 * Why a reservation found no place, given the lesson as it held it locked: a
 * lesson not open for entries (closed, cancelled, done, past) is a Conflict;
 * an open or full one had no room left, ScheduleFull.
 */
export function whyNoPlace(
  s: Pick<typeof schedules.$inferSelect, 'statusRound' | 'date'>,
  today: string,
): 'ScheduleFull' | 'Conflict' {
  const reservable =
    (s.statusRound === 'open' || s.statusRound === 'full') && s.date >= today;
  return reservable ? 'ScheduleFull' : 'Conflict';
}

export function scheduleRepository(db: Db, appUrl: string, paymentsOn = false) {
  const rules: PlaceRules = { appUrl, paymentsOn };
  /** `forUser`'s statements, one per shape (own or a pro's, which filters). */
  const lessonsOfShape = builtPerShape<{
    execute(values: Record<string, unknown>): Promise<ScheduleRow[]>;
  }>();
  /**
   * One query for any number of lessons (the ids as one array value, so one
   * text): the confirmed amateurs, the waitlist, the viewer's reservation and
   * place in line. Built once.
   */
  const peopleQuery = () => {
    const viewerId = sql.placeholder('viewerId');
    return db
      .select({
        id: schedules.id,
        mine: reservations,
        participants: sql<
          string[]
        >`(select coalesce(json_agg(r.user_id order by r.created_at), '[]'::json)
          from ${reservations} r where r.schedule_id = ${schedules.id} and r.status = 'confirmed')`,
        waitlistCount:
          sql<number>`(select count(*) from ${waitlist} w where w.schedule_id = ${schedules.id})`.mapWith(
            Number,
          ),
        // The viewer's rank: how many are in line up to and including them (0: not in line).
        waitlistPosition:
          sql<number>`(select count(*) from ${waitlist} w where w.schedule_id = ${schedules.id}
          and w.seq <= (select v.seq from ${waitlist} v where v.schedule_id = ${schedules.id} and v.user_id = ${viewerId}))`.mapWith(
            Number,
          ),
      })
      .from(schedules)
      .leftJoin(reservations, reservationOf(schedules.id, viewerId))
      .where(sql`${schedules.id} = any(${sql.placeholder('ids')}::text[])`);
  };
  const peopleOfShape =
    builtPerShape<ReturnType<ReturnType<typeof peopleQuery>['prepare']>>();

  async function peopleOf(
    ids: string[],
    viewerId: string,
  ): Promise<Map<string, LessonPeople>> {
    if (ids.length === 0) return new Map();
    const rows = await peopleOfShape('people', peopleQuery).execute({
      ids,
      viewerId,
    });
    return new Map(
      rows.map((r) => [
        r.id,
        {
          participants: r.participants,
          waitlistCount: r.waitlistCount,
          ...(r.waitlistPosition
            ? { waitlistPosition: r.waitlistPosition }
            : {}),
          ...(r.mine ? { mine: r.mine } : {}),
        },
      ]),
    );
  }

  async function view(
    rows: ScheduleRow[],
    viewer: Viewer,
  ): Promise<Schedule[]> {
    const people = await peopleOf(
      rows.map((r) => r.id),
      viewer.id,
    );
    return rows.map((r) =>
      toSchedule(
        r,
        people.get(r.id) ?? { participants: [], waitlistCount: 0 },
        viewer,
      ),
    );
  }

  const promote = (tx: Tx, id: string, now: Date) =>
    promoteWaitlist(tx, id, now, rules);

  /** No two of a pro's live lessons on one date may overlap in time. */
  async function assertNoOverlap(
    tx: Tx,
    proId: string,
    date: string,
    start: string,
    end: string,
    exceptId?: string,
  ) {
    // One pro's lessons are checked one writer at a time, across API instances too.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`schedule:${proId}`}))`,
    );
    const clash = await tx
      .select({ id: schedules.id })
      .from(schedules)
      .where(
        proDay(
          proId,
          date,
          notInArray(schedules.statusRound, CLOSED),
          sql`${schedules.startTime} < ${end} and ${start} < ${schedules.endTime}`,
          exceptId ? ne(schedules.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (clash.length) throw new ApiError('Conflict');
  }

  return {
    view,

    find(id: string): Promise<ScheduleRow | undefined> {
      return findBy(db, schedules, schedules.id, id);
    },

    /** Whether `userId` is the lesson's pro or one of its confirmed participants. */
    async isParticipant(scheduleId: string, userId: string): Promise<boolean> {
      return (await this.members(scheduleId)).includes(userId);
    },

    /** The pro first, then the confirmed participants; none for an unknown lesson. One round trip: every chat send asks. */
    async members(scheduleId: string): Promise<string[]> {
      const rows = await db
        .select({
          proId: schedules.proId,
          userId: reservations.userId,
        })
        .from(schedules)
        .leftJoin(reservations, reservationsIn(schedules.id, 'confirmed'))
        .where(eq(schedules.id, scheduleId));
      if (rows.length === 0) return [];
      return [
        rows[0]!.proId,
        ...rows.flatMap((r) => (r.userId ? [r.userId] : [])),
      ];
    },

    /**
     * Lessons where `userId` is the pro or a participant. Another member sees
     * only the lessons `userId` offers as a pro, never someone's reservations.
     */
    async forUser(
      userId: string,
      viewer: Viewer,
      filter: { from?: string; date?: string; activeOnly?: boolean },
    ): Promise<Schedule[]> {
      const own = viewer.id === userId || viewer.type === 'admin';
      const shape = [
        own ? 'own' : 'pro',
        filter.date ? 'date' : '',
        filter.from ? 'from' : '',
        filter.activeOnly ? 'active' : '',
      ].join(':');
      const rows = await lessonsOfShape(shape, () => {
        const user = sql.placeholder('userId');
        return db
          .select()
          .from(schedules)
          .where(
            and(
              own
                ? or(
                    eq(schedules.proId, user),
                    inArray(
                      schedules.id,
                      db
                        .select({ id: reservations.scheduleId })
                        .from(reservations)
                        .where(placesHeldBy(user)),
                    ),
                    // A lesson they wait for is theirs to see too (キャンセル待ち).
                    inArray(
                      schedules.id,
                      db
                        .select({ id: waitlist.scheduleId })
                        .from(waitlist)
                        .where(eq(waitlist.userId, user)),
                    ),
                  )
                : eq(schedules.proId, user),
              filter.date
                ? eq(schedules.date, sql.placeholder('date'))
                : undefined,
              filter.from
                ? gte(schedules.date, sql.placeholder('from'))
                : undefined,
              filter.activeOnly ? stillToBeHeld : undefined,
            ),
          )
          .orderBy(
            asc(schedules.date),
            asc(schedules.startTime),
            asc(schedules.id),
          )
          .limit(1000);
      }).execute({ userId, date: filter.date, from: filter.from });
      return view(rows, viewer);
    },

    async create(
      proId: string,
      input: ScheduleCreateInput,
      now: Date,
    ): Promise<ScheduleRow> {
      return db.transaction(async (tx) => {
        await assertNoOverlap(
          tx,
          proId,
          input.date,
          input.startTime,
          input.endTime,
        );
        const [row] = await tx
          .insert(schedules)
          .values({
            id: newId(),
            proId,
            date: input.date,
            startTime: input.startTime,
            endTime: input.endTime,
            place: input.place,
            area: input.area || null,
            capacity: input.capacity,
            fee: input.fee,
            note: input.note || null,
            statusRound: input.statusRound ?? 'open',
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        return row!;
      });
    },

    async update(
      current: ScheduleRow,
      input: ScheduleUpdateInput,
      now: Date,
    ): Promise<{ row: ScheduleRow; effects: PaymentEffects }> {
      return db.transaction(async (tx) => {
        const effects = noEffects();
        const stored = await lockLesson(tx, current.id);
        const was = stored.statusRound;
        // A lesson called off stays off: its places, holds and refunds are settled.
        if (
          was === 'cancelled' &&
          input.statusRound !== undefined &&
          input.statusRound !== 'cancelled'
        )
          throw new ApiError('Conflict');
        // Called off this way only while /schedule/callOff could: not once held.
        if (
          input.statusRound === 'cancelled' &&
          was !== 'cancelled' &&
          !mayCallOff(stored, now)
        )
          throw new ApiError('Conflict');
        // What the amateurs booked stays as they booked it: its day, its
        // times and its fee (a card may have been charged it, and a lesson
        // moved to today could no longer be cancelled). To change those, the
        // pro calls the lesson off and creates another.
        if (
          stored.reservedCount > 0 &&
          ((input.date !== undefined && input.date !== stored.date) ||
            (input.startTime !== undefined &&
              input.startTime !== stored.startTime) ||
            (input.endTime !== undefined && input.endTime !== stored.endTime) ||
            (input.fee !== undefined && input.fee !== stored.fee))
        )
          throw new ApiError('Conflict');
        // What is not sent stays as stored now (`current` was read before
        // the lock: a move or a booking since must not be written over).
        const date = input.date ?? stored.date;
        const startTime = input.startTime ?? stored.startTime;
        const endTime = input.endTime ?? stored.endTime;
        if (
          date !== stored.date ||
          startTime !== stored.startTime ||
          endTime !== stored.endTime
        )
          await assertNoOverlap(
            tx,
            current.proId,
            date,
            startTime,
            endTime,
            current.id,
          );
        const patch: Partial<typeof schedules.$inferInsert> = {
          date,
          startTime,
          endTime,
          updatedAt: now,
        };
        if (input.place !== undefined) patch.place = input.place;
        if (input.area !== undefined) patch.area = input.area || null;
        if (input.fee !== undefined) patch.fee = input.fee;
        if (input.note !== undefined) patch.note = input.note || null;
        if (input.statusRound !== undefined)
          patch.statusRound = input.statusRound;
        if (input.capacity !== undefined) patch.capacity = input.capacity;
        // Open or full by the room left after the edit (more places reopen a
        // full lesson; as many places as bookings fill an open one), in this
        // statement, so the row it answers is the lesson as stored.
        const byRoom = {
          statusRound: statusByRoom(
            input.statusRound ?? schedules.statusRound,
            input.capacity ?? schedules.capacity,
          ),
        };
        // Conditional on the reservations at write time, so a concurrent booking can't be squeezed out.
        const [row] = await tx
          .update(schedules)
          .set({ ...patch, ...byRoom })
          .where(
            and(
              eq(schedules.id, current.id),
              input.capacity !== undefined
                ? sql`${schedules.reservedCount} <= ${input.capacity}`
                : undefined,
            ),
          )
          .returning();
        if (!row) throw new ApiError('ValidationError', 'capacity');
        // Set cancelled here is a call-off without a reason: the same refunds, holds and mails.
        if (row.statusRound === 'cancelled' && was !== 'cancelled') {
          await settleCallOff(tx, row.id, undefined, now, rules, effects);
          return { row: await lockLesson(tx, row.id), effects };
        }
        // The course is where the amateurs go: whoever holds a place is told.
        if (row.place !== stored.place && stored.reservedCount > 0) {
          const holders = await tx
            .select({ userId: reservations.userId })
            .from(reservations)
            .where(
              and(
                eq(reservations.scheduleId, row.id),
                inArray(reservations.status, ACTIVE),
              ),
            );
          await outboxRepository(tx, appUrl).lessonNotice({
            kind: 'changed',
            scheduleId: row.id,
            amateurIds: holders.map((h) => h.userId),
            toPro: false,
            changes: [`ゴルフ場：${stored.place} → ${row.place}`],
            now,
          });
        }
        // Room, maybe new: the waitlist moves up at once.
        if (
          row.statusRound === 'open' &&
          (await promote(tx, row.id, now)).length
        )
          return { row: await lockLesson(tx, row.id), effects };
        return { row, effects };
      });
    },

    async setRound(
      proId: string,
      date: string,
      status: StatusRound,
      now: Date,
    ): Promise<{ updatedCount: number; effects: PaymentEffects }> {
      return db.transaction(async (tx) => {
        const effects = noEffects();
        // Locked in one order (two calls on one date never deadlock). A
        // lesson called off stays off: its places, holds and refunds are settled.
        const day = await tx
          .select({
            id: schedules.id,
            statusRound: schedules.statusRound,
            date: schedules.date,
            startTime: schedules.startTime,
          })
          .from(schedules)
          .where(proDay(proId, date))
          .orderBy(asc(schedules.id))
          .for('update');
        // Calling off leaves out the lessons already held, as /schedule/callOff refuses them.
        const changing = day.filter((l) =>
          status === 'cancelled'
            ? l.statusRound !== 'cancelled' && mayCallOff(l, now)
            : l.statusRound !== 'cancelled',
        );
        if (changing.length === 0) return { updatedCount: 0, effects };
        const rows = await tx
          .update(schedules)
          .set({
            // Opened: full where no place is free (API.md's other statuses as sent).
            statusRound: status === 'open' ? statusByRoom(status) : status,
            updatedAt: now,
          })
          .where(
            inArray(
              schedules.id,
              changing.map((l) => l.id),
            ),
          )
          .returning({ id: schedules.id });
        for (const l of changing)
          if (status === 'cancelled' && l.statusRound !== 'cancelled')
            await settleCallOff(tx, l.id, undefined, now, rules, effects);
          else if (status === 'open') await promote(tx, l.id, now);
        return { updatedCount: rows.length, effects };
      });
    },

    /**
     * Reserves a place: idempotent, and never beyond capacity whatever the
     * concurrency, because the count moves only by a conditional update in the
     * same transaction as the reservation row. The amateur and the pro are
     * mailed in that transaction (the outbox).
     *
     * Five round trips with BEGIN and COMMIT, since every booking of a lesson
     * waits on its row (bench/booking.ts): one read checks the lesson, its pro
     * (確認中 takes no bookings), a block either way and reads the names the
     * mails need; one statement adds the reservation, takes the place and
     * leaves the waitlist (data-modifying CTEs); one writes the mails. Returns
     * the lesson as the reservation left it; none when they already held a place.
     */
    async reserve(
      id: string,
      userId: string,
      today: string,
      now: Date,
    ): Promise<ScheduleRow | undefined> {
      return db.transaction(async (tx) => {
        const pro = alias(users, 'pro');
        const me = alias(users, 'me');
        const [found] = await tx
          .select({
            lesson: schedules,
            proVerified: pro.verified,
            proName: pro.userName,
            proEmail: pro.email,
            myName: me.userName,
            myEmail: me.email,
            blocked: sql<boolean>`not ${notBlockedWith(userId, schedules.proId)}`,
          })
          .from(schedules)
          .innerJoin(pro, eq(pro.id, schedules.proId))
          .leftJoin(me, eq(me.id, userId))
          .where(eq(schedules.id, id))
          // The lesson first, as every path that moves places locks it (lockLesson,
          // promote): taking the reservation row first could deadlock with a promotion.
          .for('update', { of: schedules });
        if (!found) throw new ApiError('NotFound');
        // A pro and an amateur who blocked each other do not book each other.
        if (found.blocked) throw new ApiError('Forbidden');
        if (!found.proVerified) throw new ApiError('Conflict');
        const s = found.lesson;
        // Paid online: the place is taken by /payment/start (a hold), never here.
        if (paidOnline(rules, s.fee)) {
          const [held] = await tx
            .select({ status: reservations.status })
            .from(reservations)
            .where(reservationOf(id, userId));
          // Reserving again what they already paid for changes nothing.
          if (held?.status === 'confirmed') return undefined;
          throw new ApiError('PaymentRequired');
        }
        const added = tx
          .$with('added')
          .as(upsertConfirmed(tx, id, userId, s.fee, now));
        const taken = tx
          .$with('taken')
          .as(
            takePlace(tx, id, today, now, sql`exists (select 1 from ${added})`),
          );
        const unqueued = tx
          .$with('unqueued')
          .as(leaveLine(tx, id, userId, sql`exists (select 1 from ${taken})`));
        const [outcome] = await tx
          .with(added, taken, unqueued)
          .select()
          .from(added)
          .leftJoin(taken, sql`true`);
        // No row: they already hold a place (reserving again changes nothing).
        if (!outcome) return undefined;
        // The lesson is locked since the first read, so `s` is what the update saw.
        const lesson = outcome.taken;
        if (!lesson) throw new ApiError(whyNoPlace(s, today));
        await outboxRepository(tx, appUrl).lessonNotice({
          kind: 'reserved',
          scheduleId: id,
          amateurIds: [userId],
          now,
          known: {
            lesson: {
              ...s,
              proName: found.proName,
              proEmail: found.proEmail,
            },
            people: new Map(
              found.myEmail
                ? [[userId, { name: found.myName ?? '', email: found.myEmail }]]
                : [],
            ),
          },
        });
        return lesson;
      });
    },

    /**
     * Cancels the caller's reservation until the day before the lesson (Japan
     * time); the place goes to the first in line in the same transaction. A
     * paid reservation is refunded in full (queued here, sent by the refund
     * worker); an unpaid hold is let go at any time (nothing was charged and
     * nobody was told). Undefined when they hold none.
     */
    async cancel(
      id: string,
      userId: string,
      today: string,
      now: Date,
    ): Promise<PaymentEffects | undefined> {
      return db.transaction(async (tx) => {
        const effects = noEffects();
        const s = await lockLesson(tx, id);
        const [mine] = await tx
          .select()
          .from(reservations)
          .where(
            reservationOf(id, userId, inArray(reservations.status, ACTIVE)),
          )
          .for('update');
        if (!mine) return undefined;
        if (mine.status === 'pending') {
          const released =
            mine.paymentId !== null &&
            (await releaseHold(
              tx,
              mine.paymentId,
              'cancelled',
              now,
              rules,
              effects,
            ));
          if (!released) {
            await dropReservation(tx, id, userId, now);
            await releasePlace(tx, id, now);
            await promote(tx, id, now);
          }
          return effects;
        }
        if (!mayCancelOn(s.date, today)) throw new ApiError('CancelClosed');
        await dropReservation(tx, id, userId, now);
        await releasePlace(tx, id, now);
        await outboxRepository(tx, appUrl).lessonNotice({
          kind: 'cancelled',
          scheduleId: id,
          amateurIds: [userId],
          now,
        });
        if (
          mine.paymentStatus === 'paid' &&
          mine.paymentId !== null &&
          (await queueRefund(tx, mine.paymentId, 'cancelled', now))
        )
          effects.refundsQueued++;
        await promote(tx, id, now);
        return effects;
      });
    },

    /**
     * The pro (or an admin) calls a lesson off before it starts: it becomes
     * `cancelled` with the reason, the participants keep their reservations
     * (and the chat), are mailed, and the waitlist is emptied. Every paid
     * reservation is refunded in full and unpaid holds are let go.
     * `inTransaction` runs in the same transaction (the chat notice).
     */
    async callOff(
      id: string,
      reason: string,
      now: Date,
      inTransaction?: (tx: Tx, participants: string[]) => Promise<void>,
    ): Promise<{ row: ScheduleRow; effects: PaymentEffects }> {
      return db.transaction(async (tx) => {
        const effects = noEffects();
        const s = await lockLesson(tx, id);
        if (s.statusRound === 'cancelled' || !mayCallOff(s, now))
          throw new ApiError('Conflict');
        const [row] = await tx
          .update(schedules)
          .set({
            statusRound: 'cancelled',
            callOffReason: reason,
            updatedAt: now,
          })
          .where(eq(schedules.id, id))
          .returning();
        const participants = await settleCallOff(
          tx,
          id,
          reason,
          now,
          rules,
          effects,
        );
        await inTransaction?.(tx, participants);
        return { row: row!, effects };
      });
    },

    /**
     * Joins the waitlist of a full lesson (idempotent: the first position is
     * kept). Under the lesson's row lock, so a place freed meanwhile is either
     * seen here (Conflict: reserve instead) or given to this amateur.
     */
    async waitlistJoin(id: string, userId: string, now: Date): Promise<number> {
      return db.transaction(async (tx) => {
        const s = await lockLesson(tx, id);
        // The same gates as a reservation: the line leads to one.
        const [gate] = await tx
          .select({
            proVerified: users.verified,
            blocked: sql<boolean>`not ${notBlockedWith(userId, schedules.proId)}`,
            held: reservations.userId,
          })
          .from(schedules)
          .innerJoin(users, eq(users.id, schedules.proId))
          .leftJoin(
            reservations,
            reservationOf(id, userId, inArray(reservations.status, ACTIVE)),
          )
          .where(eq(schedules.id, id));
        if (gate?.blocked) throw new ApiError('Forbidden');
        if (
          !gate?.proVerified ||
          gate.held ||
          s.statusRound !== 'full' ||
          lessonStart(s) <= now
        )
          throw new ApiError('Conflict');
        await tx
          .insert(waitlist)
          .values({ scheduleId: id, userId, createdAt: now })
          .onConflictDoNothing();
        const [me] = await tx
          .select({ n: count() })
          .from(waitlist)
          .where(
            and(
              eq(waitlist.scheduleId, id),
              lte(
                waitlist.seq,
                sql`(select w.seq from ${waitlist} w where w.schedule_id = ${id} and w.user_id = ${userId})`,
              ),
            ),
          );
        return me!.n;
      });
    },

    async waitlistLeave(id: string, userId: string): Promise<void> {
      await db
        .delete(waitlist)
        .where(and(eq(waitlist.scheduleId, id), eq(waitlist.userId, userId)));
    },

    /** A pro's lessons from `today` on that are still to be held (not called off, not done). */
    async upcomingOf(proId: string, today: string): Promise<ScheduleRow[]> {
      return db
        .select()
        .from(schedules)
        .where(
          and(
            eq(schedules.proId, proId),
            gte(schedules.date, today),
            stillToBeHeld,
          ),
        );
    },

    /** Gives places freed outside a booking (a deleted account, a pro verified again) to the waitlists. */
    async fillFreedPlaces(ids: string[], now: Date): Promise<void> {
      for (const id of ids)
        await db.transaction(async (tx) => {
          await promote(tx, id, now);
        });
    },

    /**
     * Deletes a lesson nobody holds a place of and nobody ever paid for
     * online: its payments and refunds would go with it (the money records,
     * and refunds still owed). 409 Conflict otherwise (call it off instead).
     */
    async remove(id: string): Promise<number> {
      const gone = await db
        .delete(schedules)
        .where(
          and(
            eq(schedules.id, id),
            eq(schedules.reservedCount, 0),
            sql`not exists (select 1 from ${payments} p where p.schedule_id = ${id})`,
          ),
        )
        .returning({ id: schedules.id });
      if (gone.length === 0 && (await this.find(id)))
        throw new ApiError('Conflict');
      return gone.length;
    },
  };
}

/**
 * The people and money side of a lesson just set `cancelled` (by
 * /schedule/callOff, or by a status change to cancelled), in the caller's
 * transaction with the lesson locked: the waitlist is emptied, unpaid holds
 * are let go, every paid reservation is refunded in full and the
 * participants are mailed (without a reason when none was given). Returns
 * the confirmed participants.
 */
export async function settleCallOff(
  tx: Tx,
  id: string,
  reason: string | undefined,
  now: Date,
  rules: PlaceRules,
  effects: PaymentEffects,
): Promise<string[]> {
  await tx.delete(waitlist).where(eq(waitlist.scheduleId, id));
  const holds = await tx
    .select({ paymentId: reservations.paymentId })
    .from(reservations)
    .where(reservationsIn(id, 'pending'));
  for (const h of holds)
    if (h.paymentId)
      await releaseHold(tx, h.paymentId, 'calledOff', now, rules, effects);
  // One read of the seated amateurs gives the refunds, the mail list and who paid online.
  const seated = await tx
    .select({
      userId: reservations.userId,
      paymentId: reservations.paymentId,
      paymentStatus: reservations.paymentStatus,
    })
    .from(reservations)
    .where(reservationsIn(id, 'confirmed'))
    .orderBy(asc(reservations.createdAt));
  for (const r of seated)
    if (
      r.paymentStatus === 'paid' &&
      r.paymentId &&
      (await queueRefund(tx, r.paymentId, 'calledOff', now))
    )
      effects.refundsQueued++;
  const participants = seated.map((r) => r.userId);
  // Those who paid online are told their money comes back; the pro gets one mail.
  const paidIds = new Set(
    seated
      .filter(
        (r) => r.paymentStatus === 'paid' || r.paymentStatus === 'refunded',
      )
      .map((r) => r.userId),
  );
  const outbox = outboxRepository(tx, rules.appUrl);
  if (paidIds.size)
    await outbox.lessonNotice({
      kind: 'calledOff',
      scheduleId: id,
      amateurIds: participants.filter((u) => paidIds.has(u)),
      ...(reason ? { reason } : {}),
      now,
      toPro: false,
      paidOnline: true,
    });
  await outbox.lessonNotice({
    kind: 'calledOff',
    scheduleId: id,
    amateurIds: participants.filter((u) => !paidIds.has(u)),
    ...(reason ? { reason } : {}),
    now,
  });
  return participants;
}

/**
 * Locks the lesson's row for the transaction (NotFound when there is none).
 * Every path that changes who holds a place locks it first, so two of them on
 * one lesson run one after the other.
 */
export async function lockLesson(tx: Tx, id: string): Promise<ScheduleRow> {
  const [s] = await tx
    .select()
    .from(schedules)
    .where(eq(schedules.id, id))
    .for('update');
  if (!s) throw new ApiError('NotFound');
  return s;
}

/**
 * Takes one place if the lesson is open, not full and not past (and `also`
 * holds); returns the lesson as it is now, none when no place was taken. A
 * query, so a reservation can run it inside its own statement.
 */
export function takePlace(
  tx: Tx,
  id: string,
  today: string,
  now: Date,
  also?: SQL,
) {
  return tx
    .update(schedules)
    .set({
      reservedCount: sql`${schedules.reservedCount} + 1`,
      statusRound: sql`case when ${schedules.reservedCount} + 1 >= ${schedules.capacity} then 'full' else ${schedules.statusRound} end`,
      updatedAt: now,
    })
    .where(
      and(
        eq(schedules.id, id),
        eq(schedules.statusRound, 'open'),
        sql`${schedules.reservedCount} < ${schedules.capacity}`,
        gte(schedules.date, today),
        also,
      ),
    )
    .returning();
}

/** Takes the amateur out of the lesson's waitlist (if `also` holds). */
export function leaveLine(
  tx: Db | Tx,
  id: string | SQLWrapper,
  userId: string | SQLWrapper,
  also?: SQL,
) {
  return tx
    .delete(waitlist)
    .where(and(eq(waitlist.scheduleId, id), eq(waitlist.userId, userId), also))
    .returning({ userId: waitlist.userId });
}

/** Gives a place back; a full lesson reopens. */
export async function releasePlace(
  tx: Tx,
  id: string,
  now: Date,
): Promise<void> {
  await tx
    .update(schedules)
    .set({
      reservedCount: sql`${schedules.reservedCount} - 1`,
      statusRound: sql`case when ${schedules.statusRound} = 'full' then 'open' else ${schedules.statusRound} end`,
      updatedAt: now,
    })
    .where(eq(schedules.id, id));
}

/**
 * An open or full lesson's status decided by its room (`places` its capacity,
 * the new one when it changes): open with a place free, full without one.
 * An open lesson without room could be neither reserved nor waited for (the
 * waitlist takes full lessons only); a full one with room turns away
 * bookings while nobody can wait. Any other status stays as it is.
 */
function statusByRoom(
  status: StatusRound | SQLWrapper,
  places: number | SQLWrapper = schedules.capacity,
): SQL {
  return sql`case when ${status} in ('open', 'full') then (case when ${schedules.reservedCount} >= ${places} then 'full' else 'open' end) else ${status} end`;
}

/**
 * The amateur's reservation as `confirmed` (paid at the course): a new row, or
 * one they cancelled before. Returns no row when they already hold one.
 */
function upsertConfirmed(
  tx: Tx,
  id: string,
  userId: string,
  fee: number,
  now: Date,
) {
  return tx
    .insert(reservations)
    .values({
      scheduleId: id,
      userId,
      status: 'confirmed',
      amount: fee,
      serviceFee: 0,
      paymentStatus: 'none',
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [reservations.scheduleId, reservations.userId],
      set: {
        status: 'confirmed',
        amount: fee,
        serviceFee: 0,
        paymentStatus: 'none',
        holdExpiresAt: null,
        cancelledAt: null,
        createdAt: now,
      },
      setWhere: eq(reservations.status, 'cancelled'),
    })
    .returning({ u: reservations.userId });
}

/** The amateur's active reservation as cancelled (the place is released by the caller). */
async function dropReservation(
  tx: Tx,
  id: string,
  userId: string,
  now: Date,
): Promise<void> {
  await tx
    .update(reservations)
    .set({
      status: 'cancelled',
      cancelledAt: now,
      holdExpiresAt: null,
      // An unpaid hold leaves nothing to pay; a paid one keeps 'paid' until refunded.
      paymentStatus: sql`case when ${reservations.paymentStatus} = 'requires_payment' then 'none' else ${reservations.paymentStatus} end`,
    })
    .where(reservationOf(id, userId, inArray(reservations.status, ACTIVE)));
}

/** holdFirstPlace's statement, rendered once (queries.ts). */
const holdFirstPlaceStatement = preparedStatement<
  {
    fee: number;
    verified: boolean;
    blocked: boolean;
    holding: number;
    paid: string | null;
  },
  'scheduleId' | 'userId' | 'today' | 'paymentId' | 'now' | 'ends'
>('hold_first_place', (db, at) => {
  const pro = alias(users, 'pro');
  return sql`
      with lesson as (
        select ${schedules.id} as id, ${schedules.fee} as fee,
          ${pro.verified} as verified,
          not ${notBlockedWith(at.userId, schedules.proId)} as blocked,
          ${schedules.statusRound} = 'open'
            and ${schedules.reservedCount} < ${schedules.capacity}
            and ${schedules.date} >= ${at.today} as room,
          (select count(*)::int from ${payments} p
            where p.user_id = ${at.userId} and p.status = 'pending'
              and p.hold_expires_at > ${at.now}::timestamptz) as holding
        from ${schedules} inner join ${users} as pro on ${pro.id} = ${schedules.proId}
        where ${schedules.id} = ${at.scheduleId}
        for update of ${schedules}
      ),
      held as (
        insert into reservations (schedule_id, user_id, status, amount,
          service_fee, payment_status, hold_expires_at, payment_id, created_at)
        select id, ${at.userId}, 'pending', fee, ${SERVICE_FEE}::integer,
          'requires_payment', ${at.ends}::timestamptz, ${at.paymentId},
          ${at.now}::timestamptz
        from lesson
        where room and verified and not blocked and fee > 0
          and holding < ${HOLDS_PER_MEMBER_MAX}
        on conflict (schedule_id, user_id) do update
        set status = excluded.status, amount = excluded.amount,
          service_fee = excluded.service_fee,
          payment_status = excluded.payment_status,
          hold_expires_at = excluded.hold_expires_at,
          payment_id = excluded.payment_id, created_at = excluded.created_at,
          cancelled_at = null
        where reservations.status = 'cancelled'
        returning schedule_id, amount
      ),
      -- Not takePlace's conditional update: held checked the room on this
      -- locked row, and a reservation without its place must never be left.
      taken as (
        update schedules
        set reserved_count = reserved_count + 1,
          status_round = case when reserved_count + 1 >= capacity then 'full'
            else status_round end,
          updated_at = ${at.now}::timestamptz
        where id in (select schedule_id from held)
        returning id
      ),
      paid as (
        insert into payments (id, schedule_id, user_id, amount, service_fee,
          status, hold_expires_at, created_at)
        select ${at.paymentId}, held.schedule_id, ${at.userId}, held.amount,
          ${SERVICE_FEE}::integer, 'pending', ${at.ends}::timestamptz,
          ${at.now}::timestamptz
        from held join taken on taken.id = held.schedule_id
        returning id
      ),
      left_line as (${leaveLine(db, at.scheduleId, at.userId, sql`exists (select 1 from paid)`).getSQL()})
      select lesson.fee, lesson.verified, lesson.blocked, lesson.holding,
        (select id from paid) as paid
      from lesson`;
});

/** What the one-statement hold found: the lesson's facts, and the payment if it held a place. */
export type FirstHold = {
  fee: number;
  proVerified: boolean;
  blocked: boolean;
  /** The amateur's unpaid holds running when it looked (HOLDS_PER_MEMBER_MAX). */
  holding: number;
  payment: PaymentRow | undefined;
};

/**
 * The usual hold, in one statement and one round trip, outside any
 * transaction (the round trips of BEGIN, a locking read, the hold and COMMIT
 * were most of what a start cost): the lesson locked first, as every change
 * of its places does; then, if it is open with room, its pro checked, no
 * block either way and a fee to pay, the amateur's reservation pending with
 * a new payment (no PaymentIntent yet), a place taken and their place in the
 * line given up.
 *
 * Why it is race-free in one statement: the locking read answers the
 * lesson's latest row, even after waiting for another transaction's lock
 * (the statement's snapshot may be older), so `room` is current; the
 * reservation's ON CONFLICT also sees the latest rows, so a place of theirs
 * that another transaction just took (pending or confirmed) stops the hold,
 * where a NOT EXISTS would read the older snapshot; and the place is taken
 * only for the reservation inserted, on the row this statement locked.
 * Undefined for no such lesson; `payment` undefined when nothing changed (no
 * room, a place of theirs already, or a condition refused): the caller finds
 * out which under the lock.
 */
export async function holdFirstPlace(
  db: Db,
  scheduleId: string,
  userId: string,
  today: string,
  now: Date,
): Promise<FirstHold | undefined> {
  const until = holdUntil(now);
  const paymentId = newId();
  const [row] = await holdFirstPlaceStatement(db, {
    scheduleId,
    userId,
    today,
    paymentId,
    now: now.toISOString(),
    ends: until.toISOString(),
  });
  if (!row) return undefined;
  return {
    fee: row.fee,
    proVerified: row.verified,
    blocked: row.blocked,
    holding: row.holding,
    payment: row.paid
      ? {
          id: paymentId,
          scheduleId,
          userId,
          amount: row.fee,
          serviceFee: SERVICE_FEE,
          status: 'pending',
          paymentIntentId: null,
          holdExpiresAt: until,
          paidAt: null,
          refundedAt: null,
          failure: null,
          createdAt: now,
        }
      : undefined,
  };
}

/**
 * Holds a place the caller has just taken (takePlace) for `userId`, who holds
 * no active reservation of the lesson: a payment row (pending, no
 * PaymentIntent yet) and the reservation `pending` until it is paid or the
 * hold ends (HOLD_MINUTES). Undefined when they already hold a place.
 */
export async function holdPlace(
  tx: Tx,
  lesson: Pick<ScheduleRow, 'id' | 'fee'>,
  userId: string,
  now: Date,
): Promise<PaymentRow | undefined> {
  const until = holdUntil(now);
  const paymentId = newId();
  const held = {
    status: 'pending' as const,
    amount: lesson.fee,
    serviceFee: SERVICE_FEE,
    paymentStatus: 'requires_payment' as const,
    holdExpiresAt: until,
    paymentId,
    createdAt: now,
  };
  const [upserted] = await tx
    .insert(reservations)
    .values({ scheduleId: lesson.id, userId, ...held })
    .onConflictDoUpdate({
      target: [reservations.scheduleId, reservations.userId],
      set: { ...held, cancelledAt: null },
      setWhere: eq(reservations.status, 'cancelled'),
    })
    .returning({ u: reservations.userId });
  if (!upserted) return undefined;
  const [payment] = await tx
    .insert(payments)
    .values({
      id: paymentId,
      scheduleId: lesson.id,
      userId,
      amount: lesson.fee,
      serviceFee: SERVICE_FEE,
      status: 'pending',
      holdExpiresAt: until,
      createdAt: now,
    })
    .returning();
  return payment;
}

/**
 * Lets a pending payment's hold go, in the caller's transaction (the lesson
 * locked first, then the payment): the payment fails with `failure`, the
 * reservation (if it still waits on this payment) is cancelled, the place is
 * released and the waitlist moves up. The PaymentIntent, if any, is left in
 * `effects` to cancel after COMMIT. False when there was nothing to let go
 * (not pending, or an `expired` release of a hold that has not ended).
 */
export async function releaseHold(
  tx: Tx,
  paymentId: string,
  failure: HoldFailure,
  now: Date,
  rules: PlaceRules,
  effects: PaymentEffects,
): Promise<boolean> {
  const [known] = await tx
    .select({ scheduleId: payments.scheduleId })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!known) return false;
  await lockLesson(tx, known.scheduleId);
  const [p] = await tx
    .select()
    .from(payments)
    .where(eq(payments.id, paymentId))
    .for('update');
  if (p?.status !== 'pending') return false;
  if (failure === 'expired' && p.holdExpiresAt > now) return false;
  await tx
    .update(payments)
    .set({ status: 'failed', failure })
    .where(eq(payments.id, p.id));
  if (p.paymentIntentId) effects.cancelIntents.push(p.paymentIntentId);
  const gone = await tx
    .update(reservations)
    .set(letGo(now))
    .where(
      reservationOf(
        p.scheduleId,
        p.userId,
        eq(reservations.status, 'pending'),
        eq(reservations.paymentId, p.id),
      ),
    )
    .returning({ u: reservations.userId });
  if (gone.length === 0) return true;
  await releasePlace(tx, p.scheduleId, now);
  await promoteWaitlist(tx, p.scheduleId, now, rules);
  return true;
}

/**
 * Gives freed places to the first in line, in the caller's transaction:
 * each promotion takes a place by the same conditional update a reservation
 * does, then the first waiting amateur (SKIP LOCKED, so two transactions
 * freeing places at once promote two different people). A lesson paid online
 * gives them a hold (they pay within HOLD_MINUTES, or it goes to the next);
 * otherwise the place is theirs. Returns who was promoted, after mailing them
 * and the pro.
 */
export async function promoteWaitlist(
  tx: Tx,
  id: string,
  now: Date,
  rules: PlaceRules,
): Promise<string[]> {
  const promoted: string[] = [];
  // Nobody waiting, the usual case: no place taken only to be given back.
  const [waiting] = await tx
    .select({ one: sql`1` })
    .from(waitlist)
    .where(eq(waitlist.scheduleId, id))
    .limit(1);
  if (!waiting) return promoted;
  // A pro not (or no longer) verified takes no bookings, from the line
  // either; it waits for their verification or the next place freed.
  const [pro] = await tx
    .select({ id: users.id, verified: users.verified })
    .from(schedules)
    .innerJoin(users, eq(users.id, schedules.proId))
    .where(eq(schedules.id, id));
  if (!pro?.verified) return promoted;
  // Whoever blocked the pro, or was blocked by them, leaves the line: they
  // could not book the lesson either.
  await tx
    .delete(waitlist)
    .where(
      and(
        eq(waitlist.scheduleId, id),
        sql`not ${notBlockedWith(pro.id, waitlist.userId)}`,
      ),
    );
  let online = false;
  for (;;) {
    const s = await findBy(tx, schedules, schedules.id, id);
    if (!s || lessonStart(s) <= now) break;
    if ((await takePlace(tx, id, japanDate(now), now)).length === 0) break;
    const [first] = await tx
      .delete(waitlist)
      .where(
        and(
          eq(waitlist.scheduleId, id),
          eq(
            waitlist.seq,
            sql`(select w.seq from ${waitlist} w where w.schedule_id = ${id} order by w.seq limit 1 for update skip locked)`,
          ),
        ),
      )
      .returning({ userId: waitlist.userId });
    if (!first) {
      await releasePlace(tx, id, now);
      break;
    }
    online = paidOnline(rules, s.fee);
    if (online) {
      if (!(await holdPlace(tx, s, first.userId, now))) {
        // They hold a place already: the one just taken is not theirs to keep.
        await releasePlace(tx, id, now);
        continue;
      }
    } else await upsertConfirmed(tx, id, first.userId, s.fee, now);
    promoted.push(first.userId);
  }
  if (promoted.length)
    await outboxRepository(tx, rules.appUrl).lessonNotice({
      kind: 'promoted',
      scheduleId: id,
      amateurIds: promoted,
      now,
      ...(online ? { holdUntil: holdUntil(now) } : {}),
    });
  return promoted;
}
