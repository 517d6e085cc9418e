import { and, desc, eq, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Report, ReportContext, ReportCreateInput } from '@proam/contract';
import type { Page } from '../lib/paging.js';
import { newestFirst, rowsOf } from './queries.js';
import type { Db } from '../db/database.js';
import {
  blocks,
  messages,
  reports,
  reviews,
  schedules,
  users,
  waitlist,
} from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import { newId } from '../lib/ids.js';
import { present, presentOf } from '../lib/present.js';
import type { PublicReads } from './public-cache.js';

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
export const notBlockedWith = (
  viewerId: string | SQLWrapper,
  column: AnyPgColumn,
) =>
  sql`not exists (select 1 from ${blocks} b
    where (b.user_id = ${viewerId} and b.blocked_id = ${column})
       or (b.user_id = ${column} and b.blocked_id = ${viewerId}))`;

/**
 * The most members one member may block. Far more than anyone blocks by hand;
 * the bound keeps what one account can write into the blocks table (which
 * every search of the shared pages consults, user-repository.ts) small.
 */
export const MAX_BLOCKS = 500;

/** Blocks between members, and reports to the company (通報). */
export function moderationRepository(db: Db, published: PublicReads) {
  return {
    /**
     * `userId` blocks `blockedId`; blocking them again changes nothing. A
     * member who holds MAX_BLOCKS blocks gets 409 Conflict for another one,
     * and nothing changes.
     */
    async block(userId: string, blockedId: string, now: Date) {
      await db.transaction(async (tx) => {
        // One member's blocks are counted one writer at a time, across API
        // instances too: two concurrent blocks cannot both take the last one.
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`blocks:${userId}`}))`,
        );
        const [held] = await rowsOf<{ count: number; again: boolean }>(
          tx,
          sql`select count(*)::int as count,
            coalesce(bool_or(${blocks.blockedId} = ${blockedId}), false) as again
          from ${blocks} where ${blocks.userId} = ${userId}`,
        );
        if (!held!.again && held!.count >= MAX_BLOCKS)
          throw new ApiError('Conflict');
        await tx
          .insert(blocks)
          .values({ userId, blockedId, createdAt: now })
          .onConflictDoNothing();
        // Neither waits for the other's lessons any more: they could not book them.
        await tx.execute(sql`
          delete from ${waitlist} w using ${schedules} s
          where w.schedule_id = s.id
            and ((w.user_id = ${userId} and s.pro_id = ${blockedId})
              or (w.user_id = ${blockedId} and s.pro_id = ${userId}))`);
      });
      // The search's shared pages are only for members in no block (user-repository.ts).
      published.changed('blocks');
    },

    async unblock(userId: string, blockedId: string) {
      await db
        .delete(blocks)
        .where(and(eq(blocks.userId, userId), eq(blocks.blockedId, blockedId)));
      published.changed('blocks');
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
    async between(a: string, b: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql`1` })
        .from(blocks)
        .where(
          or(
            and(eq(blocks.userId, a), eq(blocks.blockedId, b)),
            and(eq(blocks.userId, b), eq(blocks.blockedId, a)),
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
      page: Page,
    ): Promise<Report[]> {
      const rows = await newestFirst(
        db
          .select()
          .from(reports)
          .where(status ? eq(reports.status, status) : undefined)
          .$dynamic(),
        reports.createdAt,
        reports.id,
        page,
      );
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

    /**
     * For each report: the reporter's name, and the reported profile, review
     * or chat message (a message's target id is `<lesson id>:<sort_key>`).
     * One query; what has since been deleted is simply absent.
     */
    async reportContexts(ids: string[]): Promise<ReportContext[]> {
      if (ids.length === 0) return [];
      // As selected: each optional field null where the row is gone.
      type CtxRow = { id: string } & {
        [K in Exclude<keyof ReportContext, 'id'>]-?: ReportContext[K] | null;
      };
      const idList = sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      );
      const rows = await rowsOf<CtxRow>(
        db,
        sql`
        select rp.id,
          reporter.user_name as "reporterName",
          coalesce(tu.id, rvu.id, mu.id) as "targetUserId",
          coalesce(tu.user_name, rvu.user_name, mu.user_name) as "targetUserName",
          coalesce(tu.type, rvu.type, mu.type) as "targetUserType",
          rv.pro_id as "proId",
          coalesce(rv.comment, m.msg) as "targetText",
          rv.rating,
          coalesce(rv.schedule_id, m.partition_key) as "scheduleId"
        from ${reports} rp
        left join ${users} reporter on reporter.id = rp.reporter_id
        left join ${users} tu on rp.target_type = 'user' and tu.id = rp.target_id
        left join ${reviews} rv on rp.target_type = 'review' and rv.id = rp.target_id
        left join ${users} rvu on rvu.id = rv.user_id
        left join ${messages} m on rp.target_type = 'message'
          and m.partition_key = split_part(rp.target_id, ':', 1)
          and m.sort_key = split_part(rp.target_id, ':', 2)
        left join ${users} mu on mu.id = m.sender
        where rp.id in (${idList})`,
      );
      return rows.map((r) => ({
        id: r.id,
        ...presentOf(r, [
          'reporterName',
          'targetUserId',
          'targetUserName',
          'targetUserType',
          'proId',
          'targetText',
        ]),
        ...(r.rating === null ? {} : { rating: Number(r.rating) }),
        ...presentOf(r, ['scheduleId']),
      }));
    },
  };
}
