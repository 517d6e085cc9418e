const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** How far before the newest message a client has a reconnect's catch-up starts. */
export const CATCH_UP_MARGIN_MS = 5_000;

/**
 * Where a reconnect's catch-up starts (`getMessage` `after`): the sort key of
 * the moment CATCH_UP_MARGIN_MS before `newest` (sort keys are ULIDs, their
 * first 10 characters the time in ms). A socket gets an instance's own posts
 * at once but another instance's by NOTIFY, a few ms later, so it can hold a
 * newer message and not yet an older one when it drops; starting from the
 * newest would skip that one for good. What comes twice merges by key. A key
 * that is not a ULID is returned as it is.
 */
export function catchUpAfter(newest: string): string {
  let time = 0;
  for (const c of newest.slice(0, 10).toUpperCase()) {
    const v = CROCKFORD.indexOf(c);
    if (v < 0) return newest;
    time = time * 32 + v;
  }
  let t = Math.max(0, time - CATCH_UP_MARGIN_MS);
  let prefix = '';
  for (let i = 0; i < 10; i++) {
    prefix = CROCKFORD[t % 32]! + prefix;
    t = Math.floor(t / 32);
  }
  return prefix + '0'.repeat(16);
}
