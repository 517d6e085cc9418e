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

/**
 * 12000 → `12,000`, as ja-JP writes it. Integers are grouped by hand: the
 * first Intl formatter of a page loads the ICU locale data, about 25 ms of
 * main thread on the landing page (100 ms on a throttled phone).
 */
export const groupDigits = (n: number): string =>
  Number.isSafeInteger(n)
    ? String(n).replace(/\B(?=(\d{3})+$)/g, ',')
    : // Fractions and huge numbers, which no screen shows: Intl's own rules.
      // eslint-disable-next-line no-restricted-syntax
      n.toLocaleString('ja-JP');

/** 12000 → `12,000円`. */
export const formatYenSuffix = (amount: number): string =>
  `${groupDigits(amount)}円`;

/** An ISO instant → `YYYY-MM-DDTHH:mm` in Japan time, for `<input type="datetime-local">`. */
export const toJapanLocalInput = (instant: string | number | Date): string => {
  const t = new Date(instant).getTime();
  if (Number.isNaN(t)) return '';
  return new Date(t + 9 * 3600_000).toISOString().slice(0, 16);
};

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * `YYYY-MM-DDTHH:mm` read as Japan time → an ISO instant in UTC, or null when
 * it is not a real date and time.
 */
export const japanLocalInputToIso = (local: string): string | null => {
  const m = LOCAL_RE.exec(local.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(utc);
  if (
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    h > 23 ||
    mi > 59
  )
    return null;
  return new Date(utc - 9 * 3600_000).toISOString();
};

/** An ISO instant → `2026年11月22日(日) 09:30` in Japan time. */
export const formatInstantDateTime = (instant: string): string => {
  const local = toJapanLocalInput(instant);
  if (!local) return '';
  return `${formatDate(local.slice(0, 10))} ${local.slice(11, 16)}`;
};
