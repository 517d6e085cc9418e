/**
 * Japanese national holidays (祝日・振替休日・国民の休日) for the month
 * calendar, from @holiday-jp/holiday_jp.
 *
 * The package's full table (1970–2050) is about 230 KB, so only the year
 * shown is fetched: each year below is its own lazy chunk of about 3 KB
 * (under 1 KB compressed). The import paths are spelled out because the
 * bundler cannot split an import whose bare module path is built at run
 * time; a year outside the list has no holidays marked, and growing the list
 * is one line per year.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { Holiday } from '@holiday-jp/holiday_jp/lib/types';

type YearTable = Readonly<Record<string, Holiday>>;

const YEAR_TABLES: Readonly<
  Record<number, () => Promise<{ default: YearTable }>>
> = {
  2020: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2020.js'),
  2021: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2021.js'),
  2022: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2022.js'),
  2023: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2023.js'),
  2024: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2024.js'),
  2025: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2025.js'),
  2026: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2026.js'),
  2027: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2027.js'),
  2028: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2028.js'),
  2029: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2029.js'),
  2030: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2030.js'),
  2031: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2031.js'),
  2032: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2032.js'),
  2033: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2033.js'),
  2034: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2034.js'),
  2035: () => import('@holiday-jp/holiday_jp/lib/holidays_every_year/2035.js'),
};

/** `YYYY-MM-DD` → the holiday's Japanese name, e.g. `勤労感謝の日`. */
export type HolidayNames = ReadonlyMap<string, string>;

const NONE: HolidayNames = new Map();

/** Years already fetched, so a month change back renders marked at once. */
const loaded = new Map<number, HolidayNames>();
const pending = new Map<number, Promise<HolidayNames>>();
const listeners = new Set<() => void>();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The holidays of a year; empty when the year has no data or the chunk could not load. */
export const loadHolidays = (year: number): Promise<HolidayNames> => {
  const done = loaded.get(year);
  if (done) return Promise.resolve(done);
  const load = YEAR_TABLES[year];
  if (!load) return Promise.resolve(NONE);
  let promise = pending.get(year);
  if (!promise) {
    promise = load()
      .then(({ default: table }) => {
        const names: HolidayNames = new Map(
          Object.values(table).map((h) => [h.date, h.name] as const),
        );
        loaded.set(year, names);
        for (const listener of listeners) listener();
        return names;
      })
      // Offline before the chunk was cached: the calendar still works
      // unmarked, and showing that year again retries.
      .catch(() => NONE)
      .finally(() => pending.delete(year));
    pending.set(year, promise);
  }
  return promise;
};

/**
 * The holidays of `year`: empty at first (the calendar renders without
 * waiting), then the year's names once its chunk has arrived.
 */
export const useHolidays = (year: number): HolidayNames => {
  useEffect(() => {
    void loadHolidays(year);
  }, [year]);
  return useSyncExternalStore(
    subscribe,
    () => loaded.get(year) ?? NONE,
    () => NONE,
  );
};
