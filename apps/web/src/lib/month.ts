/**
 * Months as `YYYY-MM` strings, for the pickers of 売上明細 and 売上・精算
 * (statements are by Japan month).
 */
import { toJapanDate } from './format';

/** `YYYY-MM` of an instant in Japan time: statements are by Japan month. */
export const japanMonth = (now: Date = new Date()): string =>
  toJapanDate(now).slice(0, 7);

/** `2026-11`, `-1` → `2026-10`. */
export const shiftMonth = (month: string, by: number): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
};

/** `2026-11` → `2026年11月`. */
export const formatMonth = (month: string): string => {
  const [y, m] = month.split('-');
  return `${Number(y)}年${Number(m)}月`;
};

const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
export const isMonth = (v: string | null | undefined): v is string =>
  typeof v === 'string' && MONTH_RE.test(v);

/**
 * The months a picker offers, newest first: this Japan month back `count`
 * months (payments began recently; older months are rarely asked for).
 */
export const recentMonths = (now: Date = new Date(), count = 24): string[] => {
  const current = japanMonth(now);
  return Array.from({ length: count }, (_, i) => shiftMonth(current, -i));
};
