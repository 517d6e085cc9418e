/** A calendar month, `month` 1–12. */
export type YearMonth = { year: number; month: number };

export type DayCell = { date: string; day: number; weekday: number };

/** Weeks of seven cells, Sunday first; null pads the days outside the month. */
export type MonthGrid = (DayCell | null)[][];

export const WEEKDAY_LABELS = [
  '日',
  '月',
  '火',
  '水',
  '木',
  '金',
  '土',
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

export const toYmd = (year: number, month: number, day: number): string =>
  `${year}-${pad(month)}-${pad(day)}`;

export const parseYmd = (ymd: string): YearMonth & { day: number } => {
  const [y = 0, m = 1, d = 1] = ymd.split('-').map(Number);
  return { year: y, month: m, day: d };
};

export const daysInMonth = ({ year, month }: YearMonth): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = (year: number, month: number, day: number): number =>
  new Date(Date.UTC(year, month - 1, day)).getUTCDay();

export const monthGrid = (ym: YearMonth): MonthGrid => {
  const offset = weekdayOf(ym.year, ym.month, 1);
  const count = daysInMonth(ym);
  const cells: (DayCell | null)[] = Array.from({ length: offset }, () => null);
  for (let day = 1; day <= count; day++) {
    cells.push({
      date: toYmd(ym.year, ym.month, day),
      day,
      weekday: (offset + day - 1) % 7,
    });
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: MonthGrid = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
};

export const addMonths = (ym: YearMonth, delta: number): YearMonth => {
  const index = ym.year * 12 + (ym.month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
};

/** A date moved by whole days, e.g. the arrow keys in the grid. */
export const addDays = (ymd: string, delta: number): string => {
  const { year, month, day } = parseYmd(ymd);
  return new Date(Date.UTC(year, month - 1, day + delta))
    .toISOString()
    .slice(0, 10);
};

export const monthOf = (ymd: string): YearMonth => {
  const { year, month } = parseYmd(ymd);
  return { year, month };
};

export const formatYearMonth = ({ year, month }: YearMonth): string =>
  `${year}年${month}月`;

/** The day a key press moves to, or null when the key is not a grid key. */
export const dateForKey = (key: string, ymd: string): string | null => {
  const { year, month, day } = parseYmd(ymd);
  switch (key) {
    case 'ArrowLeft':
      return addDays(ymd, -1);
    case 'ArrowRight':
      return addDays(ymd, 1);
    case 'ArrowUp':
      return addDays(ymd, -7);
    case 'ArrowDown':
      return addDays(ymd, 7);
    case 'Home':
      return addDays(ymd, -weekdayOf(year, month, day));
    case 'End':
      return addDays(ymd, 6 - weekdayOf(year, month, day));
    case 'PageUp':
    case 'PageDown': {
      const target = addMonths({ year, month }, key === 'PageUp' ? -1 : 1);
      return toYmd(
        target.year,
        target.month,
        Math.min(day, daysInMonth(target)),
      );
    }
    default:
      return null;
  }
};
