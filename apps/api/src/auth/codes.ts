import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { countSql } from '../db/database.js';
import { authCodes } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { codeHash, newCode, sameHex } from '../lib/secrets.js';

export type CodePurpose = 'register' | 'reset';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_TRIES = 5;
/** Sends per address and purpose per hour, and per IP per hour (SECURITY RC-04). */
export const SENDS_PER_ADDRESS_HOUR = 5;
export const SENDS_PER_IP_HOUR = 20;

const DIGITS: Record<CodePurpose, 6 | 8> = { register: 6, reset: 8 };

export const normalEmail = (email: string) => email.trim().toLowerCase();

export function codeStore(db: Db, clock: Clock, key: string) {
  return {
    /**
     * Issues a code for (address, purpose) after the send limits, superseding
     * earlier ones. Returns the code; the caller decides whether to mail it,
     * so the answer and the stored rows look the same for every address.
     */
    async issue(
      email: string,
      purpose: CodePurpose,
      ip: string,
    ): Promise<string> {
      const now = clock.now();
      const hourAgo = new Date(now.getTime() - 3_600_000);
      const [perAddress] = await db
        .select({ n: countSql })
        .from(authCodes)
        .where(
          and(
            eq(authCodes.email, email),
            eq(authCodes.purpose, purpose),
            gt(authCodes.createdAt, hourAgo),
          ),
        );
      const [perIp] = await db
        .select({ n: countSql })
        .from(authCodes)
        .where(and(eq(authCodes.ip, ip), gt(authCodes.createdAt, hourAgo)));
      if (
        (perAddress?.n ?? 0) >= SENDS_PER_ADDRESS_HOUR ||
        (perIp?.n ?? 0) >= SENDS_PER_IP_HOUR
      )
        throw new ApiError('TooManyRequests', undefined, {
          'retry-after': '3600',
        });

      const code = newCode(DIGITS[purpose]);
      await db.transaction(async (tx) => {
        await tx
          .update(authCodes)
          .set({ usedAt: now })
          .where(
            and(
              eq(authCodes.email, email),
              eq(authCodes.purpose, purpose),
              isNull(authCodes.usedAt),
            ),
          );
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

    /** Consumes a valid code or throws InvalidCode; each wrong try counts, 5 kill the code. */
    async consume(
      email: string,
      purpose: CodePurpose,
      code: string,
    ): Promise<void> {
      const now = clock.now();
      const [row] = await db
        .select()
        .from(authCodes)
        .where(
          and(
            eq(authCodes.email, email),
            eq(authCodes.purpose, purpose),
            isNull(authCodes.usedAt),
            gt(authCodes.expiresAt, now),
          ),
        )
        .orderBy(desc(authCodes.createdAt))
        .limit(1);
      if (!row || row.attempts >= CODE_MAX_TRIES)
        throw new ApiError('InvalidCode');
      if (!sameHex(row.codeHash, codeHash(key, purpose, email, code))) {
        await db
          .update(authCodes)
          .set({ attempts: sql`${authCodes.attempts} + 1` })
          .where(eq(authCodes.id, row.id));
        throw new ApiError('InvalidCode');
      }
      // Conditional, so two parallel uses of one code can't both succeed.
      const used = await db
        .update(authCodes)
        .set({ usedAt: now })
        .where(and(eq(authCodes.id, row.id), isNull(authCodes.usedAt)))
        .returning({ id: authCodes.id });
      if (used.length === 0) throw new ApiError('InvalidCode');
    },
  };
}
