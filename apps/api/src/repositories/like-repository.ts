import { and, desc, eq, sql } from 'drizzle-orm';
import type { Like } from '@proam/contract';
import type { Db } from '../db/database.js';
import { likes, users } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import type { UserCache } from './user-cache.js';

type LikeRow = typeof likes.$inferSelect;

const toLike = (r: LikeRow, userType: Like['userType']): Like => ({
  likeId: r.id,
  userType,
  userId: r.userId,
  likeUserId: r.likeUserId,
  createdAt: r.createdAt.toISOString(),
});

/** Likes, with users.like_count kept equal to the likes received, in the same transaction. */
export function likeRepository(db: Db, cache: UserCache) {
  return {
    async given(userId: string, userType: Like['userType']): Promise<Like[]> {
      const rows = await db
        .select()
        .from(likes)
        .where(eq(likes.userId, userId))
        .orderBy(desc(likes.createdAt), desc(likes.id));
      return rows.map((r) => toLike(r, userType));
    },

    /** The likes a member has received, newest first, each with the liker's type. */
    async received(likeUserId: string): Promise<Like[]> {
      const rows = await db
        .select({ like: likes, type: users.type })
        .from(likes)
        .innerJoin(users, eq(users.id, likes.userId))
        .where(eq(likes.likeUserId, likeUserId))
        .orderBy(desc(likes.createdAt), desc(likes.id))
        .limit(1000);
      // Only pros and amateurs can like (the likeCreate rules), so the liker is never a buyer.
      return rows.map((r) => toLike(r.like, r.type as Like['userType']));
    },

    /** Idempotent: liking twice returns the first like and counts once. */
    async create(
      userId: string,
      userType: Like['userType'],
      likeUserId: string,
      now: Date,
    ): Promise<Like> {
      const like = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(likes)
          .values({ id: newId(), userId, likeUserId, createdAt: now })
          .onConflictDoNothing({ target: [likes.userId, likes.likeUserId] })
          .returning();
        if (inserted[0]) {
          await tx
            .update(users)
            .set({ likeCount: sql`${users.likeCount} + 1` })
            .where(eq(users.id, likeUserId));
          return toLike(inserted[0], userType);
        }
        const [existing] = await tx
          .select()
          .from(likes)
          .where(
            and(eq(likes.userId, userId), eq(likes.likeUserId, likeUserId)),
          );
        return toLike(existing!, userType);
      });
      cache.evict(likeUserId);
      return like;
    },

    async remove(userId: string, likeUserId: string): Promise<number> {
      const removed = await db.transaction(async (tx) => {
        const gone = await tx
          .delete(likes)
          .where(
            and(eq(likes.userId, userId), eq(likes.likeUserId, likeUserId)),
          )
          .returning({ id: likes.id });
        if (gone.length) {
          await tx
            .update(users)
            .set({
              likeCount: sql`greatest(${users.likeCount} - ${gone.length}, 0)`,
            })
            .where(eq(users.id, likeUserId));
        }
        return gone.length;
      });
      cache.evict(likeUserId);
      return removed;
    },
  };
}
