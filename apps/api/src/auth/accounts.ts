import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { UserCreateInput } from '@proam/contract';
import type { Db } from '../db/database.js';
import {
  likes,
  loginFailures,
  mediaObjects,
  messages,
  reservations,
  schedules,
  users,
} from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import type { Clock } from '../lib/clock.js';
import type { UserCache } from '../repositories/user-cache.js';
import { newId } from '../lib/ids.js';
import { hashPassword, verifyPassword } from '../lib/password.js';
import { weakPasswordReason } from '../lib/password-policy.js';
import { normalEmail } from './codes.js';

/** Per address: after 5 failures within 15 minutes, 429 until the window passes (spec/API.md). */
export const FAILURES_PER_ADDRESS = 5;
export const ADDRESS_WINDOW_MS = 15 * 60_000;
/** Per IP: 30 failed sign-ins per 5 minutes (SECURITY AU-07); successful ones don't count. */
export const FAILURES_PER_IP = 30;
export const IP_WINDOW_MS = 5 * 60_000;

type UserRow = typeof users.$inferSelect;

let dummyHash: Promise<string> | undefined;
/** Unknown addresses still cost one argon2 verify, so both failures take the same time (AU-06). */
const dummy = () =>
  (dummyHash ??= hashPassword(`dummy-${Math.random()}-password`));

function isUniqueViolation(e: unknown): boolean {
  for (
    let cur = e as { code?: string; cause?: unknown } | undefined;
    cur;
    cur = cur.cause as typeof cur
  ) {
    if (cur.code === '23505') return true;
  }
  return false;
}

export function weakPassword(password: string, context: string[]): void {
  if (weakPasswordReason(password, context))
    throw new ApiError('ValidationError', 'password');
}

export function accountStore(db: Db, clock: Clock, cache: UserCache) {
  async function throttle(email: string, ip: string): Promise<void> {
    const now = clock.now().getTime();
    const byAddress = await db
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(
        and(
          eq(loginFailures.email, email),
          gt(loginFailures.at, new Date(now - ADDRESS_WINDOW_MS)),
        ),
      )
      .orderBy(desc(loginFailures.at))
      .limit(FAILURES_PER_ADDRESS);
    const byIp = await db
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(
        and(
          eq(loginFailures.ip, ip),
          gt(loginFailures.at, new Date(now - IP_WINDOW_MS)),
        ),
      )
      .orderBy(desc(loginFailures.at))
      .limit(FAILURES_PER_IP);
    const waits: number[] = [];
    if (byAddress.length >= FAILURES_PER_ADDRESS)
      waits.push(
        byAddress[FAILURES_PER_ADDRESS - 1]!.at.getTime() +
          ADDRESS_WINDOW_MS -
          now,
      );
    if (byIp.length >= FAILURES_PER_IP)
      waits.push(byIp[FAILURES_PER_IP - 1]!.at.getTime() + IP_WINDOW_MS - now);
    if (waits.length) {
      const seconds = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
      throw new ApiError('TooManyRequests', undefined, {
        'retry-after': String(seconds),
      });
    }
  }

  async function recordFailure(email: string, ip: string): Promise<void> {
    const now = clock.now();
    await db.insert(loginFailures).values({ id: newId(), email, ip, at: now });
    // Old rows are no use to any window: keep the table small.
    await db
      .delete(loginFailures)
      .where(lt(loginFailures.at, new Date(now.getTime() - 86_400_000)));
  }

  return {
    /** Checks a mail and password; the same InvalidCredentials for an unknown address or a wrong password. */
    async authenticate(
      mail: string,
      password: string,
      ip: string,
    ): Promise<UserRow> {
      const email = normalEmail(mail);
      await throttle(email, ip);
      const [found] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email))
        .limit(1);
      // Punch-out buyers have no password: they never sign in this way.
      const user = found?.type === 'buyer' ? undefined : found;
      const ok = user
        ? await verifyPassword(user.passwordHash, password)
        : (await verifyPassword(await dummy(), password), false);
      if (!user || !ok) {
        await recordFailure(email, ip);
        throw new ApiError('InvalidCredentials');
      }
      await db.delete(loginFailures).where(eq(loginFailures.email, email));
      return user;
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [user] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, normalEmail(email)))
        .limit(1);
      return user;
    },

    async create(
      input: UserCreateInput,
      passwordHash: string,
    ): Promise<UserRow> {
      const row: typeof users.$inferInsert = {
        id: newId(),
        type: input.type,
        email: normalEmail(input.email),
        passwordHash,
        userName: input.userName,
        nameKana: input.nameKana || null,
        area: input.area || null,
        bio: input.bio || null,
        ...(input.type === 'pro' && input.pro
          ? {
              affiliation: input.pro.affiliation || null,
              career: input.pro.career || null,
              lessonFee: input.pro.lessonFee ?? null,
              homeCourse: input.pro.homeCourse || null,
              specialty: input.pro.specialty || null,
            }
          : {}),
        ...(input.type === 'amature' && input.amateur
          ? {
              averageScore: input.amateur.averageScore ?? null,
              experienceYears: input.amateur.experienceYears ?? null,
            }
          : {}),
        createdAt: clock.now(),
      };
      try {
        const [created] = await db.insert(users).values(row).returning();
        return created!;
      } catch (e) {
        if (isUniqueViolation(e)) throw new ApiError('EmailTaken');
        throw e;
      }
    },

    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db
        .update(users)
        // Real time, as the access tokens' `iatMs` is: tokens issued before now are refused.
        .set({
          passwordHash,
          updatedAt: clock.now(),
          tokensValidAfter: new Date(),
        })
        .where(eq(users.id, userId));
      cache.evict(userId);
    },

    /**
     * Deletes an account as spec/API.md says: profile, likes given and received
     * (counters follow), reservations (their lessons reopen), logins; the
     * member's chat messages stay, with no sender (shown as 退会したユーザー).
     * Returns the member's stored objects, for the caller to delete.
     */
    async remove(userId: string): Promise<string[]> {
      const objects = await db
        .select({ keyName: mediaObjects.keyName })
        .from(mediaObjects)
        .where(eq(mediaObjects.ownerId, userId));
      const liked = await db.transaction(async (tx) => {
        const booked = await tx
          .select({ scheduleId: reservations.scheduleId })
          .from(reservations)
          .where(eq(reservations.userId, userId));
        if (booked.length) {
          await tx
            .update(schedules)
            .set({
              reservedCount: sql`${schedules.reservedCount} - 1`,
              statusRound: sql`case when ${schedules.statusRound} = 'full' then 'open' else ${schedules.statusRound} end`,
              updatedAt: clock.now(),
            })
            .where(
              inArray(
                schedules.id,
                booked.map((b) => b.scheduleId),
              ),
            );
        }
        const given = await tx
          .select({ target: likes.likeUserId })
          .from(likes)
          .where(eq(likes.userId, userId));
        for (const { target } of given) {
          await tx
            .update(users)
            .set({ likeCount: sql`greatest(${users.likeCount} - 1, 0)` })
            .where(eq(users.id, target));
        }
        await tx
          .update(messages)
          .set({ sender: null })
          .where(eq(messages.sender, userId));
        await tx.delete(users).where(eq(users.id, userId));
        return given.map((g) => g.target);
      });
      cache.evict(userId, ...liked);
      return objects.map((o) => o.keyName);
    },
  };
}
