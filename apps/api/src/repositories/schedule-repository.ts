import {
  and,
  asc,
  eq,
  gte,
  inArray,
  ne,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type {
  Schedule,
  ScheduleCreateInput,
  ScheduleUpdateInput,
  StatusRound,
} from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import { reservations, schedules } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import { newId } from '../lib/ids.js';

export type ScheduleRow = typeof schedules.$inferSelect;
type Viewer = { id: string; type: string };

/** Participants are shown only to the pro, a participant, or an admin (docs/api.md). */
export function toSchedule(
  r: ScheduleRow,
  participants: string[],
  viewer: Viewer,
): Schedule {
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
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const CLOSED: StatusRound[] = ['cancelled'];

const RESERVE_ATTEMPTS = 3;

/**
 * What a reservation does when the conditional update found no place, given
 * the lesson as it is now: a lesson that is not open for entries (closed,
 * cancelled, past) is a Conflict; one that is full is ScheduleFull; one with
 * room again (a cancellation committed in between) is tried again, a few times.
 */
export function afterMissedPlace(
  s:
    | Pick<
        typeof schedules.$inferSelect,
        'statusRound' | 'reservedCount' | 'capacity' | 'date'
      >
    | undefined,
  today: string,
  attempt: number,
): 'retry' | 'ScheduleFull' | 'Conflict' {
  const reservable =
    s !== undefined &&
    (s.statusRound === 'open' || s.statusRound === 'full') &&
    s.date >= today;
  if (!reservable) return 'Conflict';
  const roomNow = s.statusRound === 'open' && s.reservedCount < s.capacity;
  return roomNow && attempt < RESERVE_ATTEMPTS ? 'retry' : 'ScheduleFull';
}

export function scheduleRepository(db: Db) {
  async function participantsOf(ids: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return map;
    const rows = await db
      .select({
        scheduleId: reservations.scheduleId,
        userId: reservations.userId,
      })
      .from(reservations)
      .where(inArray(reservations.scheduleId, ids))
      .orderBy(asc(reservations.createdAt));
    for (const r of rows) map.get(r.scheduleId)?.push(r.userId);
    return map;
  }

  async function view(
    rows: ScheduleRow[],
    viewer: Viewer,
  ): Promise<Schedule[]> {
    const parts = await participantsOf(rows.map((r) => r.id));
    return rows.map((r) => toSchedule(r, parts.get(r.id) ?? [], viewer));
  }

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
        and(
          eq(schedules.proId, proId),
          eq(schedules.date, date),
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

    async find(id: string): Promise<ScheduleRow | undefined> {
      const [row] = await db
        .select()
        .from(schedules)
        .where(eq(schedules.id, id))
        .limit(1);
      return row;
    },

    async isParticipant(scheduleId: string, userId: string): Promise<boolean> {
      const [s] = await db
        .select({ proId: schedules.proId })
        .from(schedules)
        .where(eq(schedules.id, scheduleId))
        .limit(1);
      if (!s) return false;
      if (s.proId === userId) return true;
      const [r] = await db
        .select({ u: reservations.userId })
        .from(reservations)
        .where(
          and(
            eq(reservations.scheduleId, scheduleId),
            eq(reservations.userId, userId),
          ),
        )
        .limit(1);
      return Boolean(r);
    },

    /** Everyone in a lesson: the pro and the amateurs who reserved. */
    /** The pro first, then the participants; none for an unknown lesson. One round trip: every chat send asks. */
    async members(scheduleId: string): Promise<string[]> {
      const rows = await db
        .select({
          proId: schedules.proId,
          userId: reservations.userId,
        })
        .from(schedules)
        .leftJoin(reservations, eq(reservations.scheduleId, schedules.id))
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
      const conds: (SQL | undefined)[] = [
        own
          ? or(
              eq(schedules.proId, userId),
              inArray(
                schedules.id,
                db
                  .select({ id: reservations.scheduleId })
                  .from(reservations)
                  .where(eq(reservations.userId, userId)),
              ),
            )
          : eq(schedules.proId, userId),
      ];
      if (filter.date) conds.push(eq(schedules.date, filter.date));
      if (filter.from) conds.push(gte(schedules.date, filter.from));
      if (filter.activeOnly)
        conds.push(notInArray(schedules.statusRound, ['done', 'cancelled']));
      const rows = await db
        .select()
        .from(schedules)
        .where(and(...conds))
        .orderBy(
          asc(schedules.date),
          asc(schedules.startTime),
          asc(schedules.id),
        )
        .limit(1000);
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
    ): Promise<ScheduleRow> {
      return db.transaction(async (tx) => {
        const date = input.date ?? current.date;
        const startTime = input.startTime ?? current.startTime;
        const endTime = input.endTime ?? current.endTime;
        if (
          date !== current.date ||
          startTime !== current.startTime ||
          endTime !== current.endTime
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
        // Conditional on the reservations at write time, so a concurrent booking can't be squeezed out.
        const [row] = await tx
          .update(schedules)
          .set(patch)
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
        return row;
      });
    },

    async setRound(
      proId: string,
      date: string,
      status: StatusRound,
      now: Date,
    ): Promise<number> {
      const rows = await db
        .update(schedules)
        .set({ statusRound: status, updatedAt: now })
        .where(and(eq(schedules.proId, proId), eq(schedules.date, date)))
        .returning({ id: schedules.id });
      return rows.length;
    },

    /**
     * Reserves a place: idempotent, and never beyond capacity whatever the
     * concurrency, because the count moves only by a conditional update in the
     * same transaction as the reservation row.
     */
    async reserve(
      id: string,
      userId: string,
      today: string,
      now: Date,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const added = await tx
          .insert(reservations)
          .values({ scheduleId: id, userId, createdAt: now })
          .onConflictDoNothing()
          .returning({ u: reservations.userId });
        if (added.length === 0) return;
        // Each statement sees what has committed before it (read committed): a cancellation
        // can free a place between a failed update and the look that follows, so try again.
        for (let attempt = 1; ; attempt++) {
          if (await takePlace(tx)) return;
          const [s] = await tx
            .select()
            .from(schedules)
            .where(eq(schedules.id, id));
          const next = afterMissedPlace(s, today, attempt);
          if (next !== 'retry') throw new ApiError(next);
        }
      });
      async function takePlace(tx: Tx): Promise<boolean> {
        const [row] = await tx
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
            ),
          )
          .returning({ id: schedules.id });
        return row !== undefined;
      }
    },

    async cancel(id: string, userId: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const gone = await tx
          .delete(reservations)
          .where(
            and(
              eq(reservations.scheduleId, id),
              eq(reservations.userId, userId),
            ),
          )
          .returning({ u: reservations.userId });
        if (gone.length === 0) return false;
        await tx
          .update(schedules)
          .set({
            reservedCount: sql`${schedules.reservedCount} - 1`,
            statusRound: sql`case when ${schedules.statusRound} = 'full' then 'open' else ${schedules.statusRound} end`,
            updatedAt: now,
          })
          .where(eq(schedules.id, id));
        return true;
      });
    },

    async remove(id: string): Promise<number> {
      const gone = await db
        .delete(schedules)
        .where(and(eq(schedules.id, id), eq(schedules.reservedCount, 0)))
        .returning({ id: schedules.id });
      return gone.length;
    },
  };
}
