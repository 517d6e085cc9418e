import { and, eq, sql, type SQL } from 'drizzle-orm';
import type {
  Review,
  ReviewCreateInput,
  ReviewUpdateInput,
} from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import { reservations, reviews, schedules, users } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import { newId } from '../lib/ids.js';
import { present } from '../lib/present.js';
import type { Page } from '../lib/paging.js';
import { notBlockedWith } from './moderation-repository.js';
import { findBy, newestFirst, reservationOf } from './queries.js';
import type { UserCache } from './user-cache.js';

type ReviewRow = typeof reviews.$inferSelect;

const toReview = (r: ReviewRow, userName: string): Review => ({
  id: r.id,
  scheduleId: r.scheduleId,
  proId: r.proId,
  userId: r.userId,
  userName,
  rating: r.rating,
  ...present('comment', r.comment),
  ...present('reply', r.reply),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Moves the pro's counters in the review's own transaction (the users_changed trigger tells every instance's cache). */
async function moveCounters(tx: Tx, proId: string, sum: number, n: number) {
  await tx
    .update(users)
    .set({
      ratingSum: sql`${users.ratingSum} + ${sum}`,
      reviewCount: sql`${users.reviewCount} + ${n}`,
    })
    .where(eq(users.id, proId));
}

/**
 * Deletes the reviews `which` picks and takes each off its pro's counters, in
 * the caller's transaction: `/review/delete` and account deletion (whose
 * cascade would otherwise drop an amateur's reviews and leave the counters
 * behind). Answers how many went and the pros whose counters moved, for the
 * caller to evict after COMMIT.
 */
export async function deleteReviews(
  tx: Tx,
  which: SQL,
): Promise<{ deleted: number; pros: string[] }> {
  const gone = await tx
    .delete(reviews)
    .where(which)
    .returning({ proId: reviews.proId, rating: reviews.rating });
  const byPro = new Map<string, { sum: number; n: number }>();
  for (const r of gone) {
    const total = byPro.get(r.proId) ?? { sum: 0, n: 0 };
    total.sum += r.rating;
    total.n += 1;
    byPro.set(r.proId, total);
  }
  // In id order, so two transactions moving the same pros lock them alike.
  const pros = [...byPro.keys()].sort();
  for (const proId of pros) {
    const { sum, n } = byPro.get(proId)!;
    await moveCounters(tx, proId, -sum, -n);
  }
  return { deleted: gone.length, pros };
}

/**
 * 口コミ. A review is written by an amateur who took part in a lesson
 * (confirmed, not called off) from the lesson's day on, once per lesson; the
 * pro's `ratingSum`/`reviewCount` follow every change at once.
 */
export function reviewRepository(db: Db, cache: UserCache) {
  const withName = async (r: ReviewRow) => {
    const [u] = await db
      .select({ name: users.userName })
      .from(users)
      .where(eq(users.id, r.userId));
    return toReview(r, u?.name ?? '');
  };

  return {
    find(id: string): Promise<ReviewRow | undefined> {
      return findBy(db, reviews, reviews.id, id);
    },

    async create(
      userId: string,
      input: ReviewCreateInput,
      today: string,
      now: Date,
    ): Promise<Review> {
      const row = await db.transaction(async (tx) => {
        const [took] = await tx
          .select({
            proId: schedules.proId,
            date: schedules.date,
            statusRound: schedules.statusRound,
          })
          .from(reservations)
          .innerJoin(schedules, eq(schedules.id, reservations.scheduleId))
          .where(
            reservationOf(
              input.scheduleId,
              userId,
              eq(reservations.status, 'confirmed'),
            ),
          );
        if (!took || took.date > today || took.statusRound === 'cancelled')
          throw new ApiError('Forbidden');
        const [added] = await tx
          .insert(reviews)
          .values({
            id: newId(),
            scheduleId: input.scheduleId,
            proId: took.proId,
            userId,
            rating: input.rating,
            comment: input.comment || null,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning();
        if (!added) throw new ApiError('Conflict');
        await moveCounters(tx, took.proId, input.rating, 1);
        return added;
      });
      cache.evict(row.proId);
      return withName(row);
    },

    async update(
      current: ReviewRow,
      input: ReviewUpdateInput,
      now: Date,
    ): Promise<Review> {
      const row = await db.transaction(async (tx) => {
        // Locked, so two edits at once each move the counters from what the other left.
        const [before] = await tx
          .select()
          .from(reviews)
          .where(eq(reviews.id, current.id))
          .for('update');
        if (!before) throw new ApiError('NotFound');
        const [changed] = await tx
          .update(reviews)
          .set({
            ...(input.rating !== undefined ? { rating: input.rating } : {}),
            ...(input.comment !== undefined
              ? { comment: input.comment || null }
              : {}),
            updatedAt: now,
          })
          .where(eq(reviews.id, current.id))
          .returning();
        if (input.rating !== undefined)
          await moveCounters(tx, before.proId, input.rating - before.rating, 0);
        return changed!;
      });
      cache.evict(row.proId);
      return withName(row);
    },

    async reply(current: ReviewRow, reply: string, now: Date) {
      const [row] = await db
        .update(reviews)
        .set({ reply, updatedAt: now })
        .where(eq(reviews.id, current.id))
        .returning();
      return withName(row!);
    },

    async remove(current: ReviewRow): Promise<number> {
      const { deleted } = await db.transaction((tx) =>
        deleteReviews(tx, eq(reviews.id, current.id)),
      );
      cache.evict(current.proId);
      return deleted;
    },

    /** Newest first; without those the viewer blocked or who blocked them (admins see all). */
    async list(
      proId: string,
      page: Page,
      viewer: { id: string; type: string },
    ): Promise<Review[]> {
      const rows = await newestFirst(
        db
          .select({ review: reviews, userName: users.userName })
          .from(reviews)
          .innerJoin(users, eq(users.id, reviews.userId))
          .where(
            and(
              eq(reviews.proId, proId),
              viewer.type === 'admin'
                ? undefined
                : notBlockedWith(viewer.id, reviews.userId),
            ),
          )
          .$dynamic(),
        reviews.createdAt,
        reviews.id,
        page,
      );
      return rows.map((r) => toReview(r.review, r.userName));
    },
  };
}
