import { sql } from 'drizzle-orm';
import type { WeeklyStats } from '@proam/contract';
import type { Db } from '../db/database.js';
import { messages, reservations, reviews, users } from '../db/schema.js';
import { addDays, japanDate } from '../lib/time.js';
import { rowsOf } from './queries.js';

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

/** What admins read about the service: the dashboard's weekly figures. */
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
      const rows = await rowsOf<Row>(
        db,
        sql`
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
        group by kind, week`,
      );

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
      for (const r of rows) {
        const week = byWeek.get(r.week);
        if (week) week[r.kind] = Number(r.n);
      }
      return [...byWeek.values()];
    },
  };
}
