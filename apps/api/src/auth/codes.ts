import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/database.js';
import { countSql } from '../db/database.js';
import { authAttempts, authCodes } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { codeHash, newCode, sameHex } from '../lib/secrets.js';

export type CodePurpose = 'register' | 'reset';

export const CODE_TTL_MS = 10 * 60_000;
/**
 * Wrong codes per address and purpose within any 10 minutes (one code's
 * lifetime), whichever of the live codes they were meant for: no code can be
 * guessed more than 5 times in its life (docs/security.md RC-03), and a wrong guess
 * never kills the code mailed to the member.
 */
export const CODE_MAX_TRIES = 5;
/** Sends per address and purpose per hour, and per IP per hour (docs/security.md RC-04). */
export const SENDS_PER_ADDRESS_HOUR = 5;
export const SENDS_PER_IP_HOUR = 20;

/** Login backoff (docs/security.md AU-07): 5 failures free, then 1 s, 2 s, 4 s … at most 15 minutes. */
export const BACKOFF_FREE = 5;
export const BACKOFF_CAP_MS = 15 * 60_000;
/** …and at most 100 failures in any 24 hours (NIST 800-63B's bound), never a permanent lock. */
export const BACKOFF_DAY_CAP = 100;
const DAY_MS = 86_400_000;

const DIGITS: Record<CodePurpose, 6 | 8> = { register: 6, reset: 8 };

export const normalEmail = (email: string) => email.trim().toLowerCase();

/** A limit on attempts under one key. */
export type Limit =
  /** At most `max` attempts in any `windowMs`. */
  | { key: string; kind: 'window'; max: number; windowMs: number }
  /** Exponential backoff after `BACKOFF_FREE` failures within 24 hours; a success clears it. */
  | { key: string; kind: 'backoff' };

/** The wait (ms) before one more attempt under `limit`, from the attempts already counted. */
function waitFor(
  limit: Limit,
  seen: { n: number; first: Date | null; last: Date | null },
  now: number,
): number {
  if (!seen.n || !seen.first || !seen.last) return 0;
  if (limit.kind === 'window')
    return seen.n < limit.max ? 0 : seen.first.getTime() + limit.windowMs - now;
  if (seen.n >= BACKOFF_DAY_CAP) return seen.first.getTime() + DAY_MS - now;
  if (seen.n < BACKOFF_FREE) return 0;
  const delay = Math.min(BACKOFF_CAP_MS, 1000 * 2 ** (seen.n - BACKOFF_FREE));
  return seen.last.getTime() + delay - now;
}

/** The first half of the two-key advisory lock id: this module's locks. */
const LOCK_CLASS = 7_301;
/** A 32-bit lock id for a key (a collision only makes two keys share a lock). */
const lockId = (key: string): number =>
  createHash('sha256').update(key).digest().readInt32BE(0);

/**
 * Transaction-scoped advisory locks on the keys, in one global order (so two
 * transactions never wait on each other in a cycle). They hold across every
 * API instance on the database; on PGlite there is one connection anyway.
 */
async function lockKeys(tx: Tx, keys: string[]): Promise<void> {
  const ids = [...new Set(keys.map(lockId))].sort((a, b) => a - b);
  for (const id of ids)
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, ${id})`);
}

const tooMany = (waitMs: number) =>
  new ApiError('TooManyRequests', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
  });

/** The longest wait before one more attempt under every limit (0: go ahead). */
async function waitOf(q: Db | Tx, limits: Limit[], now: Date): Promise<number> {
  const t = now.getTime();
  let wait = 0;
  for (const limit of limits) {
    const horizon = limit.kind === 'window' ? limit.windowMs : DAY_MS;
    const [seen] = await q
      .select({
        n: countSql,
        first: sql<Date | null>`min(${authAttempts.at})`.mapWith(
          authAttempts.at,
        ),
        last: sql<Date | null>`max(${authAttempts.at})`.mapWith(
          authAttempts.at,
        ),
      })
      .from(authAttempts)
      .where(
        and(
          eq(authAttempts.key, limit.key),
          gt(authAttempts.at, new Date(t - horizon)),
        ),
      );
    wait = Math.max(
      wait,
      waitFor(limit, seen ?? { n: 0, first: null, last: null }, t),
    );
  }
  return wait;
}

/**
 * Attempts counted against limits in the database (`auth_attempts`), so that
 * every API instance sees the same counts. An attempt is counted BEFORE the
 * password or code is checked, under a lock on its keys: of any number of
 * parallel attempts, only as many as the limits allow get through to be
 * checked. Whoever then succeeds takes their attempt back (`forget`).
 */
export function attemptStore(db: Db) {
  return {
    /**
     * Counts one attempt under every limit and returns the rows written, or
     * throws 429 TooManyRequests (Retry-After: the longest wait) and counts
     * nothing when any limit is spent.
     */
    async admit(limits: Limit[], now: Date): Promise<string[]> {
      // A limit already spent is refused without a lock or a transaction (the
      // flood case); a success meanwhile could only have cleared it.
      const early = await waitOf(db, limits, now);
      if (early > 0) throw tooMany(early);
      return db.transaction(async (tx) => {
        await lockKeys(
          tx,
          limits.map((l) => l.key),
        );
        const wait = await waitOf(tx, limits, now);
        if (wait > 0) throw tooMany(wait);
        const rows = limits.map((l) => ({ id: newId(), key: l.key, at: now }));
        await tx.insert(authAttempts).values(rows);
        return rows.map((r) => r.id);
      });
    },

    /** Takes attempts back (they succeeded, or were never checked), and clears whole keys. */
    async forget(ids: string[], keys: string[] = []): Promise<void> {
      const which = [
        ...(ids.length ? [inArray(authAttempts.id, ids)] : []),
        ...(keys.length ? [inArray(authAttempts.key, keys)] : []),
      ];
      if (which.length === 0) return;
      await db
        .delete(authAttempts)
        .where(which.length === 1 ? which[0] : sql.join(which, sql` or `));
    },

    /** No limit looks further back than a day: keep the table small. */
    async prune(now: Date): Promise<void> {
      await db
        .delete(authAttempts)
        .where(lt(authAttempts.at, new Date(now.getTime() - DAY_MS)));
    },
  };
}

export function codeStore(db: Db, clock: Clock, key: string) {
  const attempts = attemptStore(db);
  return {
    /**
     * Issues a code for (address, purpose) after the send limits. Earlier
     * codes stay valid until they expire: a new request (anyone can make one)
     * must not cancel the code already mailed to the member. Returns the code;
     * the caller decides whether to mail it, so the answer and the stored
     * rows look the same for every address.
     */
    async issue(
      email: string,
      purpose: CodePurpose,
      ip: string,
    ): Promise<string> {
      const now = clock.now();
      const hourAgo = new Date(now.getTime() - 3_600_000);
      const code = newCode(DIGITS[purpose]);
      await db.transaction(async (tx) => {
        // Counted and written under a lock, so parallel sends can't pass the count together.
        await lockKeys(tx, [`send:${purpose}:${email}`, `send-ip:${ip}`]);
        const [perAddress] = await tx
          .select({ n: countSql })
          .from(authCodes)
          .where(
            and(
              eq(authCodes.email, email),
              eq(authCodes.purpose, purpose),
              gt(authCodes.createdAt, hourAgo),
            ),
          );
        const [perIp] = await tx
          .select({ n: countSql })
          .from(authCodes)
          .where(and(eq(authCodes.ip, ip), gt(authCodes.createdAt, hourAgo)));
        if (
          (perAddress?.n ?? 0) >= SENDS_PER_ADDRESS_HOUR ||
          (perIp?.n ?? 0) >= SENDS_PER_IP_HOUR
        )
          throw tooMany(3_600_000);
        await tx.insert(authCodes).values({
          id: newId(),
          email,
          purpose,
          codeHash: codeHash(key, purpose, email, code),
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
          ip,
          createdAt: now,
        });
      });
      return code;
    },

    /**
     * Consumes a valid code (any live one of the address and purpose) or
     * throws InvalidCode. Every wrong code counts against the address, before
     * it is compared; past CODE_MAX_TRIES in 10 minutes, 429 until the oldest
     * of them is 10 minutes old. Using a code ends every live code of the
     * address and purpose.
     */
    async consume(
      email: string,
      purpose: CodePurpose,
      code: string,
    ): Promise<void> {
      const now = clock.now();
      const ticket = await attempts.admit(
        [
          {
            key: `code:${purpose}:${email}`,
            kind: 'window',
            max: CODE_MAX_TRIES,
            windowMs: CODE_TTL_MS,
          },
        ],
        now,
      );
      const live = and(
        eq(authCodes.email, email),
        eq(authCodes.purpose, purpose),
        isNull(authCodes.usedAt),
        gt(authCodes.expiresAt, now),
      );
      const rows = await db
        .select({ id: authCodes.id, codeHash: authCodes.codeHash })
        .from(authCodes)
        .where(live);
      const presented = codeHash(key, purpose, email, code);
      // Every live code is compared (no early exit), in constant time each.
      const match = rows.filter((r) => sameHex(r.codeHash, presented))[0];
      if (!match) {
        await attempts.prune(now);
        throw new ApiError('InvalidCode');
      }
      // Conditional, so two parallel uses of live codes can't both succeed.
      const used = await db
        .update(authCodes)
        .set({ usedAt: now })
        .where(live)
        .returning({ id: authCodes.id });
      if (!used.some((u) => u.id === match.id))
        throw new ApiError('InvalidCode');
      await attempts.forget(ticket);
    },
  };
}
