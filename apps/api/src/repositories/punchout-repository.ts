import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { punchoutSessions, users } from '../db/schema.js';
import { newId } from '../lib/ids.js';

type PunchoutRow = typeof punchoutSessions.$inferSelect;

/** Punch-out tickets and the read-only buyer users they turn into. */
export function punchoutRepository(db: Db) {
  return {
    /** Stores a set-up request's ticket (only its hash) for `ttlMs`. */
    async addTicket(
      setup: {
        buyer: string;
        buyerCookie: string;
        formPostUrl: string;
        userRef: string;
        userName: string;
        userEmail: string | null;
        ticketHash: string;
      },
      now: Date,
      ttlMs: number,
    ): Promise<void> {
      await db.insert(punchoutSessions).values({
        id: newId(),
        ...setup,
        expiresAt: new Date(now.getTime() + ttlMs),
        createdAt: now,
      });
    },

    /**
     * Redeems a live ticket once (two tabs racing for it: one wins) and makes
     * its buyer user, in one transaction; undefined for an unknown, used or
     * expired ticket.
     */
    async redeem(
      ticketHash: string,
      now: Date,
    ): Promise<{ session: PunchoutRow; buyerUserId: string } | undefined> {
      return db.transaction(async (tx) => {
        const [session] = await tx
          .update(punchoutSessions)
          .set({ redeemedAt: now })
          .where(
            and(
              eq(punchoutSessions.ticketHash, ticketHash),
              isNull(punchoutSessions.redeemedAt),
              gt(punchoutSessions.expiresAt, now),
            ),
          )
          .returning();
        if (!session) return undefined;
        const buyerUserId = newId();
        await tx.insert(users).values({
          id: buyerUserId,
          type: 'buyer',
          email: `punchout-${session.id.toLowerCase()}@buyer.invalid`,
          passwordHash: '!',
          userName: session.userName,
          createdAt: now,
        });
        await tx
          .update(punchoutSessions)
          .set({ buyerUserId })
          .where(eq(punchoutSessions.id, session.id));
        return { session, buyerUserId };
      });
    },
  };
}
