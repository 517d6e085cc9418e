/** A formatter of Japan's wall clock: members live there, whatever the server's zone. */
const inJapan = (locale: string, parts: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Tokyo', ...parts });

const JST = inJapan('en-CA', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date in Japan (`YYYY-MM-DD`), where members live. */
export const japanDate = (at: Date = new Date()): string => JST.format(at);

/** `YYYY-MM-DD` plus `days`, computed on the calendar, not in milliseconds. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const JST_TIME = inJapan('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The time of day in Japan (`HH:mm`). */
export const japanTime = (at: Date = new Date()): string => JST_TIME.format(at);
