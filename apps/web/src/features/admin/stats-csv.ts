import type { WeeklyStats } from '@proam/contract';

/** One figure of the dashboard: its key in the API's rows and its Japanese name. */
export type StatsColumn = {
  key: Exclude<keyof WeeklyStats, 'weekStart'>;
  label: string;
};

export const STATS_COLUMNS: readonly StatsColumn[] = [
  { key: 'newMembers', label: '新規会員' },
  { key: 'reservations', label: '予約' },
  { key: 'cancellations', label: 'キャンセル' },
  { key: 'reviews', label: '口コミ' },
  { key: 'chatMessages', label: 'チャット' },
];

/** Byte order mark: Excel in Japan opens a UTF-8 CSV correctly only with it. */
export const BOM = '\uFEFF';

/** `2026-11-23` → `11/23` (a chart's axis). */
export const shortWeek = (weekStart: string): string => {
  const [, m, d] = weekStart.split('-');
  return `${Number(m)}/${Number(d)}`;
};

/** `2026-11-23` → `2026-11-29`: the week's Sunday. */
export const weekEnd = (weekStart: string): string => {
  const d = new Date(`${weekStart}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 6);
  return d.toISOString().slice(0, 10);
};

const cell = (v: string | number) => {
  // A member's text (a pro's name) that starts like a formula would run as
  // one in a spreadsheet (CSV injection): a leading ' keeps it text.
  const s =
    typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * Rows as CSV for spreadsheet programs: a BOM (UTF-8), cells quoted where
 * they must be, CRLF line ends. Every admin download goes through here.
 */
export const toCsv = (
  rows: readonly (readonly (string | number)[])[],
): string =>
  BOM + rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';

/**
 * The weeks as CSV: Japanese headers (週 is the week's Monday, `YYYY-MM-DD`),
 * one row per week.
 */
export const statsCsv = (
  weeks: readonly WeeklyStats[],
  columns: readonly StatsColumn[] = STATS_COLUMNS,
): string =>
  toCsv([
    ['週', ...columns.map((c) => c.label)],
    ...weeks.map((w) => [w.weekStart, ...columns.map((c) => w[c.key])]),
  ]);

/** Saves `csv` as a download named `fileName`. */
export const downloadCsv = (csv: string, fileName: string) => {
  const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
};
