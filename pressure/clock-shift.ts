/**
 * A server child whose clock reads another time: every `Date` in it (Date.now,
 * new Date()) is `offsetMs` ahead of the wall clock (behind, if negative),
 * through an `--import` preload in NODE_OPTIONS. Timers, performance.now and
 * the database's own now() are untouched. The server takes its time from
 * Date only (lib/clock.ts), so this is how a check puts it at 18:00 in Japan,
 * or past a claim's expiry, without waiting for the hour.
 */

/** Environment for `startServer` that shifts the child's clock by `offsetMs`. */
export function shiftedClockEnv(offsetMs: number): { NODE_OPTIONS: string } {
  const preload = `
const RealDate = globalThis.Date;
const realNow = RealDate.now.bind(RealDate);
RealDate.now = () => realNow() + ${Math.round(offsetMs)};
globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) =>
    Reflect.construct(target, args.length === 0 ? [target.now()] : args, newTarget),
  apply: (target) => new target(target.now()).toString(),
});`;
  return {
    NODE_OPTIONS: [
      process.env.NODE_OPTIONS ?? '',
      `--import=data:text/javascript,${encodeURIComponent(preload)}`,
    ]
      .join(' ')
      .trim(),
  };
}

const JST_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The calendar date (`YYYY-MM-DD`) and hour in Japan at `at`. */
export function japan(at: Date): { date: string; hour: number } {
  const p = Object.fromEntries(
    JST_PARTS.formatToParts(at).map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}

/** `YYYY-MM-DD` plus `days`, on the calendar. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The instant `HH:mm:ss` Japan time on `date` (Japan has no DST: UTC+9). */
export const japanInstant = (date: string, time: string): Date =>
  new Date(`${date}T${time}+09:00`);
