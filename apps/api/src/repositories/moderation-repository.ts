import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Report, ReportCreateInput } from '@proam/contract';
import type { Db } from '../db/database.js';
import { blocks, reports } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { present } from '../lib/present.js';

type ReportRow = typeof reports.$inferSelect;

const toReport = (r: ReportRow): Report => ({
  id: r.id,
  reporterId: r.reporterId,
  targetType: r.targetType,
  targetId: r.targetId,
  reason: r.reason,
  status: r.status,
  ...present('resolution', r.resolution),
  createdAt: r.createdAt.toISOString(),
  ...(r.resolvedAt ? { resolvedAt: r.resolvedAt.toISOString() } : {}),
});

/**
 * SQL condition: no block between `viewerId` and the member in `column`, in
 * either direction. Lists, search, likes, chat and bookings all use it.
 */
export const notBlockedWith = (viewerId: string, column: AnyPgColumn) =>
  sql`not exists (select 1 from ${blocks} b
    where (b.user_id = ${viewerId} and b.blocked_id = ${column})
       or (b.user_id = ${column} and b.blocked_id = ${viewerId}))`;

/** Blocks between members, and reports to the company (通報). */
export function moderationRepository(db: Db) {
  return {
    async block(userId: string, blockedId: string, now: Date) {
      await db
        .insert(blocks)
        .values({ userId, blockedId, createdAt: now })
        .onConflictDoNothing();
    },

    async unblock(userId: string, blockedId: string) {
      await db
        .delete(blocks)
        .where(and(eq(blocks.userId, userId), eq(blocks.blockedId, blockedId)));
    },

    async blockedBy(userId: string): Promise<string[]> {
      const rows = await db
        .select({ id: blocks.blockedId })
        .from(blocks)
        .where(eq(blocks.userId, userId))
        .orderBy(desc(blocks.createdAt));
      return rows.map((r) => r.id);
    },

    /** Whether either of the two blocked the other. */
    between(a: string, b: string): Promise<boolean> {
      return this.anyBetween(a, [b]);
    },

    /** Whether `a` and any of `others` blocked one another: one query, on every chat post. */
    async anyBetween(a: string, others: string[]): Promise<boolean> {
      if (others.length === 0) return false;
      const [row] = await db
        .select({ one: sql`1` })
        .from(blocks)
        .where(
          or(
            and(eq(blocks.userId, a), inArray(blocks.blockedId, others)),
            and(inArray(blocks.userId, others), eq(blocks.blockedId, a)),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** A report; reporting the same thing twice keeps the first (idempotent). */
    async report(
      reporterId: string,
      input: ReportCreateInput,
      now: Date,
    ): Promise<Report> {
      await db
        .insert(reports)
        .values({
          id: newId(),
          reporterId,
          targetType: input.targetType,
          targetId: input.targetId,
          reason: input.reason,
          createdAt: now,
        })
        .onConflictDoNothing();
      const [row] = await db
        .select()
        .from(reports)
        .where(
          and(
            eq(reports.reporterId, reporterId),
            eq(reports.targetType, input.targetType),
            eq(reports.targetId, input.targetId),
          ),
        );
      return toReport(row!);
    },

    async reports(
      status: 'open' | 'resolved' | undefined,
      page: number,
      size: number,
    ): Promise<Report[]> {
      const rows = await db
        .select()
        .from(reports)
        .where(status ? eq(reports.status, status) : undefined)
        .orderBy(desc(reports.createdAt), desc(reports.id))
        .limit(size)
        .offset((page - 1) * size);
      return rows.map(toReport);
    },

    async resolve(
      id: string,
      resolution: string,
      by: string,
      now: Date,
    ): Promise<Report | undefined> {
      const [row] = await db
        .update(reports)
        .set({
          status: 'resolved',
          resolution,
          resolvedBy: by,
          resolvedAt: now,
        })
        .where(eq(reports.id, id))
        .returning();
      return row && toReport(row);
    },
  };
}
