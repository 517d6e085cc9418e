import { cancelDeadlineDate, type Schedule } from '@proam/contract';
import { parseYmd, WEEKDAY_LABELS, weekdayOf } from './calendar';

/** Shown once an amateur can no longer cancel (after the deadline, or on CancelClosed). */
export const CANCEL_CLOSED_REASON =
  'キャンセル期限を過ぎたため、キャンセルできません。ご都合が悪くなった場合はチャットでプロにご連絡ください。';

/**
 * The last moment an amateur may cancel, `11月28日(土) 23:59`: the day before
 * the lesson (the contract's rule, so the card and the server agree).
 */
export const formatCancelDeadline = (lessonDate: string): string => {
  const { year, month, day } = parseYmd(cancelDeadlineDate(lessonDate));
  const weekday = WEEKDAY_LABELS[weekdayOf(year, month, day)];
  return `${month}月${day}日(${weekday}) 23:59`;
};

/**
 * Whether `userId` holds a place in the lesson: their reservation when the
 * server sends it (wave 2), else the participant list.
 */
export const isReservedBy = (s: Schedule, userId: string): boolean =>
  s.myReservation
    ? s.myReservation.status !== 'cancelled'
    : (s.participants?.includes(userId) ?? false);

/** The pro called it off (中止): cancelled, with or without a reason. */
export const isCalledOff = (s: Schedule): boolean =>
  s.statusRound === 'cancelled';

const pad = (n: number) => String(n).padStart(2, '0');

/** `now` in Japan time as `YYYY-MM-DDTHH:mm`, comparable with a lesson's date and time. */
const japanMinute = (now: number): string => {
  const t = new Date(now + 9 * 3600_000);
  return `${t.toISOString().slice(0, 10)}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
};

/** A lesson may be called off until it starts (Japan time). */
export const hasStarted = (s: Schedule, now: number): boolean =>
  `${s.date}T${s.startTime}` <= japanMinute(now);

/** The lesson is over (Japan time): its end has passed. */
export const hasEnded = (s: Schedule, now: number): boolean =>
  `${s.date}T${s.endTime}` <= japanMinute(now);

/** Google Maps' search for a place name (no API key needed). */
export const mapSearchUrl = (place: string): string =>
  `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(place)}`;

/**
 * The member may review the lesson (docs/api.md, /review/create): their
 * reservation is confirmed, the lesson is over, and it was not called off.
 * The server takes a review from the lesson's day on; the app offers it once
 * the lesson has ended, when there is something to say about it.
 */
export const mayReview = (s: Schedule, userId: string, now: number) =>
  hasEnded(s, now) &&
  !isCalledOff(s) &&
  (s.myReservation
    ? s.myReservation.status === 'confirmed'
    : (s.participants?.includes(userId) ?? false));
