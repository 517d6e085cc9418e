const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'] as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2026-11-22` (a calendar date in Japan time) → `2026年11月22日(日)`. */
export const formatDate = (ymd: string): string => {
  const m = DATE_RE.exec(ymd);
  if (!m) return ymd;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const weekday = WEEKDAYS[new Date(Date.UTC(y, mo - 1, d)).getUTCDay()];
  return `${y}年${mo}月${d}日(${weekday})`;
};

/** The calendar date of an instant in Japan time, as `YYYY-MM-DD`. */
export const toJapanDate = (instant: string | number | Date): string => {
  const t = new Date(instant).getTime();
  if (Number.isNaN(t)) return '';
  // Japan has no daylight saving time, so a fixed +9 h offset is exact.
  return new Date(t + 9 * 3600_000).toISOString().slice(0, 10);
};

/** An ISO instant → its Japan-time date, `2026年11月22日(日)`. */
export const formatInstantDate = (instant: string): string => {
  const ymd = toJapanDate(instant);
  return ymd ? formatDate(ymd) : '';
};

export const todayInJapan = (now: Date = new Date()): string =>
  toJapanDate(now);

const yen = new Intl.NumberFormat('ja-JP');

/** 12000 → `¥12,000`. */
export const formatYen = (amount: number): string => `¥${yen.format(amount)}`;

/** 12000 → `12,000円`. */
export const formatYenSuffix = (amount: number): string =>
  `${yen.format(amount)}円`;
