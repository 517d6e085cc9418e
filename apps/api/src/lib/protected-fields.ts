import { ApiError } from './api-error.js';

/**
 * Fields a caller may not set are never taken from a body (docs/api.md,
 * Objects). Those that say who or what an object is (`type`, `email`,
 * `createdAt`, `proId` of a lesson, the photos outside their own call) are
 * refused with 400 ValidationError naming the field when they ask for a
 * change (docs/security.md AC-07), instead of being dropped with a 200 that looks like
 * success; sending back the value as read is accepted, since clients
 * round-trip the objects they read. Counters and lists that follow other rows
 * (`likeCount`, `participants`, `reservedCount`, `readBy`) are ignored: an
 * object read a minute ago carries them stale, and refusing that would fail
 * honest edits.
 */
export type ProtectedCheck = { field: string; changed: boolean };

/**
 * One field's check: `sent` is what the body carries (undefined when not
 * sent), `same` says whether it is what is stored (or, on create, what a new
 * object has).
 */
export const unchanged = <T>(
  field: string,
  sent: T | undefined,
  same: (sent: T) => boolean,
): ProtectedCheck => ({ field, changed: sent !== undefined && !same(sent) });

export function refuseProtectedChanges(checks: ProtectedCheck[]): void {
  const changed = checks.find((c) => c.changed);
  if (changed) throw new ApiError('ValidationError', changed.field);
}

/** The same instant, however the client wrote it. */
export const sameInstant =
  (stored: Date | string | null | undefined) =>
  (sent: string): boolean =>
    stored != null && Date.parse(sent) === new Date(stored).getTime();
