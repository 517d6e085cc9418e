import { sql } from 'drizzle-orm';
import type { ReportContext, WeeklyStats } from '@proam/contract';
import type { Db } from '../db/database.js';
import {
  messages,
  reports,
  reservations,
  reviews,
  users,
} from '../db/schema.js';
import { addDays, japanDate } from '../lib/time.js';
import { present } from '../lib/present.js';

type Kind = Exclude<keyof WeeklyStats, 'weekStart'>;
type Row = { kind: Kind; week: string; n: number | string };

/**
 * The Monday (`YYYY-MM-DD`, Japan) of the week holding `at`. Japan keeps no
 * daylight saving, so a week is exactly 7 × 24 hours from Monday 00:00 +09:00.
 */
export function japanWeekStart(at: Date): string {
  const today = japanDate(at);
  const dow = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(today, -((dow + 6) % 7));
}

/**
 * The Japan-time Monday of a timestamptz column, as text: shifted by a fixed
 * +9 hours (no time-zone database needed, so PGlite and PostgreSQL agree).
 */
const weekOf = (column: ReturnType<typeof sql.raw>) =>
  sql`to_char(date_trunc('week', (${column} at time zone 'UTC') + interval '9 hours'), 'YYYY-MM-DD')`;

/** What admins read about the service: the dashboard's weekly figures and the 通報 context. */
export function statsRepository(db: Db) {
  return {
    /**
     * Weekly counts for the `weeks` weeks ending with the one holding `now`,
     * oldest first, zeros filled in. One grouped query over the five tables,
     * each scan bounded by the first Monday (indexes on created_at help).
     */
    async weekly(weeks: number, now: Date): Promise<WeeklyStats[]> {
      const current = japanWeekStart(now);
      const first = addDays(current, -7 * (weeks - 1));
      const from = `${first}T00:00:00+09:00`;
      const to = `${addDays(current, 7)}T00:00:00+09:00`;
      const range = (column: ReturnType<typeof sql.raw>) =>
        sql`${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz`;
      const col = (name: string) => sql.raw(name);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the two drivers' execute() types differ; both answer { rows }
      const result = (await db.execute(sql`
        select kind, week, count(*)::int as n from (
          select 'newMembers' as kind, ${weekOf(col('u.created_at'))} as week
            from ${users} u
            where u.type in ('amature', 'pro') and ${range(col('u.created_at'))}
          union all
          select 'reservations', ${weekOf(col('r.created_at'))}
            from ${reservations} r where ${range(col('r.created_at'))}
          union all
          select 'cancellations', ${weekOf(col('c.cancelled_at'))}
            from ${reservations} c
            where c.status = 'cancelled' and ${range(col('c.cancelled_at'))}
          union all
          select 'reviews', ${weekOf(col('v.created_at'))}
            from ${reviews} v where ${range(col('v.created_at'))}
          union all
          select 'chatMessages', ${weekOf(col('m.create_time'))}
            from ${messages} m where ${range(col('m.create_time'))}
        ) t
        group by kind, week`)) as unknown as { rows: Row[] };

      const byWeek = new Map<string, WeeklyStats>();
      for (let i = 0; i < weeks; i++) {
        const weekStart = addDays(first, 7 * i);
        byWeek.set(weekStart, {
          weekStart,
          newMembers: 0,
          reservations: 0,
          cancellations: 0,
          reviews: 0,
          chatMessages: 0,
        });
      }
      for (const r of result.rows) {
        const week = byWeek.get(r.week);
        if (week) week[r.kind] = Number(r.n);
      }
      return [...byWeek.values()];
    },

    /**
     * For each report: the reporter's name, and the reported profile, review
     * or chat message (a message's target id is `<lesson id>:<sort_key>`).
     * One query; what has since been deleted is simply absent.
     */
    async reportContexts(ids: string[]): Promise<ReportContext[]> {
      if (ids.length === 0) return [];
      type CtxRow = {
        id: string;
        reporter_name: string | null;
        target_user_id: string | null;
        target_user_name: string | null;
        target_user_type: string | null;
        pro_id: string | null;
        target_text: string | null;
        rating: number | null;
        schedule_id: string | null;
      };
      const idList = sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      );
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the two drivers' execute() types differ; both answer { rows }
      const result = (await db.execute(sql`
        select rp.id,
          reporter.user_name as reporter_name,
          coalesce(tu.id, rvu.id, mu.id) as target_user_id,
          coalesce(tu.user_name, rvu.user_name, mu.user_name) as target_user_name,
          coalesce(tu.type, rvu.type, mu.type) as target_user_type,
          rv.pro_id,
          coalesce(rv.comment, m.msg) as target_text,
          rv.rating,
          coalesce(rv.schedule_id, m.partition_key) as schedule_id
        from ${reports} rp
        left join ${users} reporter on reporter.id = rp.reporter_id
        left join ${users} tu on rp.target_type = 'user' and tu.id = rp.target_id
        left join ${reviews} rv on rp.target_type = 'review' and rv.id = rp.target_id
        left join ${users} rvu on rvu.id = rv.user_id
        left join ${messages} m on rp.target_type = 'message'
          and m.partition_key = split_part(rp.target_id, ':', 1)
          and m.sort_key = split_part(rp.target_id, ':', 2)
        left join ${users} mu on mu.id = m.sender
        where rp.id in (${idList})`)) as unknown as { rows: CtxRow[] };
      return result.rows.map((r) => ({
        id: r.id,
        ...present('reporterName', r.reporter_name),
        ...present('targetUserId', r.target_user_id),
        ...present('targetUserName', r.target_user_name),
        ...present('targetUserType', r.target_user_type),
        ...present('proId', r.pro_id),
        ...present('targetText', r.target_text),
        ...(r.rating === null ? {} : { rating: Number(r.rating) }),
        ...present('scheduleId', r.schedule_id),
      }));
    },
  };
}
