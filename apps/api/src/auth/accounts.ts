import {
  and,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  lt,
  ne,
  or,
  sql,
} from 'drizzle-orm';
import type { UserCreateInput } from '@proam/contract';
import type { Db } from '../db/database.js';
import {
  authAttempts,
  likes,
  loginSources,
  mediaObjects,
  messages,
  payments,
  reservations,
  reviews,
  schedules,
  users,
  waitlist,
} from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import type { Clock } from '../lib/clock.js';
import type { UserCache } from '../repositories/user-cache.js';
import { queueRefund } from '../repositories/refund-repository.js';
import { ACTIVE, placesHeldBy } from '../repositories/queries.js';
import { deleteReviews } from '../repositories/review-repository.js';
import {
  lessonStart,
  noEffects,
  releaseHold,
  type PaymentEffects,
  type PlaceRules,
} from '../repositories/schedule-repository.js';
import { newId } from '../lib/ids.js';
import { japanDate } from '../lib/time.js';
import { hashPassword, verifyPassword } from '../lib/password.js';
import { weakPasswordReason } from '../lib/password-policy.js';
import { attemptStore, normalEmail, type Limit } from './codes.js';

/**
 * Login limits (docs/security.md AU-07), all counted in the database before the
 * password is checked (auth/codes.ts `attemptStore`):
 * - per address: 5 failures, then a delay doubling from 1 s up to 15 minutes
 *   (429 + Retry-After meanwhile), at most 100 in 24 hours; a success clears it;
 * - an IP that signed in to the address within 30 days has a budget of its own
 *   under the same rule, so failures from elsewhere never delay the owner there;
 * - per IP, attempts on addresses it has no recent success for: 30 failures in
 *   any 5 minutes (successes are taken back), so members who signed in from an
 *   office or carrier address before keep signing in whatever a neighbour does.
 */
export const FAILURES_PER_IP = 30;
export const IP_WINDOW_MS = 5 * 60_000;
export const KNOWN_SOURCE_MS = 30 * 86_400_000;

type UserRow = typeof users.$inferSelect;

let dummyHash: Promise<string> | undefined;
/** Unknown addresses still cost one argon2 verify, so both failures take the same time (AU-06). */
const dummy = () =>
  (dummyHash ??= hashPassword(`dummy-${Math.random()}-password`, 'dummy'));

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

/**
 * Refuses a new password that is common or resembles the member's address,
 * its local part or their name (registration and reset alike).
 */
export function weakPassword(
  password: string,
  email: string,
  userName: string,
): void {
  if (weakPasswordReason(password, [email, email.split('@')[0]!, userName]))
    throw new ApiError('ValidationError', 'password');
}

const addressKey = (email: string) => `login:${email}`;
/** An IP never contains `/`, so the first one ends it. */
const sourceKey = (ip: string, email: string) => `login-src:${ip}/${email}`;
const ipKey = (ip: string) => `login-ip:${ip}`;

export function accountStore(db: Db, clock: Clock, cache: UserCache) {
  const attempts = attemptStore(db);

  /** The limits one login attempt from `ip` on `email` counts against. */
  async function limitsFor(
    email: string,
    ip: string,
    now: Date,
  ): Promise<Limit[]> {
    const [known] = await db
      .select({ ip: loginSources.ip })
      .from(loginSources)
      .where(
        and(
          eq(loginSources.email, email),
          eq(loginSources.ip, ip),
          gt(
            loginSources.lastSuccessAt,
            new Date(now.getTime() - KNOWN_SOURCE_MS),
          ),
        ),
      )
      .limit(1);
    return known
      ? [{ key: sourceKey(ip, email), kind: 'backoff' }]
      : [
          {
            key: ipKey(ip),
            kind: 'window',
            max: FAILURES_PER_IP,
            windowMs: IP_WINDOW_MS,
          },
          { key: addressKey(email), kind: 'backoff' },
        ];
  }

  /** Every login-limit key of an address (its own and those of its known IPs). */
  const loginKeysOf = (email: string) =>
    or(
      eq(authAttempts.key, addressKey(email)),
      inArray(
        authAttempts.key,
        db
          .select({
            key: sql<string>`'login-src:' || ${loginSources.ip} || '/' || ${loginSources.email}`,
          })
          .from(loginSources)
          .where(eq(loginSources.email, email)),
      ),
    );

  return {
    /**
     * Checks a mail and password; the same InvalidCredentials for an unknown
     * address or a wrong password. The attempt is counted before the
     * password is checked, so parallel guesses can't outrun the limits.
     */
    async authenticate(
      mail: string,
      password: string,
      ip: string,
    ): Promise<UserRow> {
      const email = normalEmail(mail);
      const now = clock.now();
      const limits = await limitsFor(email, ip, now);
      const ticket = await attempts.admit(limits, now);
      let ok: boolean;
      let user: UserRow | undefined;
      try {
        const [found] = await db
          .select()
          .from(users)
          .where(eq(sql`lower(${users.email})`, email))
          .limit(1);
        // Punch-out buyers have no password: they never sign in this way; a
        // suspended member is answered as a wrong password (nothing to learn).
        user =
          found?.type === 'buyer' || found?.suspendedAt ? undefined : found;
        ok = user
          ? await verifyPassword(user.passwordHash, password, ip)
          : (await verifyPassword(await dummy(), password, ip), false);
      } catch (e) {
        // Not checked (hash queue full, database error): not a failure either.
        await attempts.forget(ticket).catch(() => undefined);
        throw e;
      }
      if (!user || !ok) {
        await attempts.prune(now);
        throw new ApiError('InvalidCredentials');
      }
      // A success clears the budget it came through, and takes back its per-IP attempt.
      await attempts.forget(ticket, [limits.at(-1)!.key]);
      await db
        .insert(loginSources)
        .values({ email, ip, lastSuccessAt: now })
        .onConflictDoUpdate({
          target: [loginSources.email, loginSources.ip],
          set: { lastSuccessAt: now },
        });
      await db
        .delete(loginSources)
        .where(
          lt(
            loginSources.lastSuccessAt,
            new Date(now.getTime() - KNOWN_SOURCE_MS),
          ),
        );
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

    /**
     * Sets a new password. It also clears the address's login delays: the
     * reset proved the mailbox, and the failures were guesses at the old one.
     */
    async setPassword(userId: string, passwordHash: string): Promise<void> {
      const [row] = await db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, userId));
      if (row) await db.delete(authAttempts).where(loginKeysOf(row.email));
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
     * Deletes an account as docs/api.md says: profile, likes given and received
     * and reviews written (counters follow), reservations (their lessons
     * reopen; holds let go, paid places of lessons to come refunded), logins;
     * the member's chat messages stay, with no sender (shown as 退会したユーザー).
     * A pro whose lessons hold online payments, or who has a lesson to come
     * that someone booked or waits for: 409 Conflict, nothing changed.
     * Returns the member's stored objects, for the caller to delete, the
     * lessons where a place came free (for the waitlist) and what Stripe is
     * owed after COMMIT.
     */
    async remove(
      userId: string,
      rules: PlaceRules,
    ): Promise<{
      objects: string[];
      freed: string[];
      effects: PaymentEffects;
    }> {
      const objects = await db
        .select({ keyName: mediaObjects.keyName })
        .from(mediaObjects)
        .where(eq(mediaObjects.ownerId, userId));
      const now = clock.now();
      const effects = noEffects();
      const done = await db.transaction(async (tx) => {
        // Locked first: a like or review the member writes meanwhile then
        // waits and fails, where it would slip past the counters below and
        // go with the cascade.
        await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.id, userId))
          .for('update');
        // A pro's lessons go with the account (schedules.pro_id cascades,
        // and their reservations and waitlists with them): while a lesson to
        // come has someone booked or waiting, the account stays, so no
        // amateur's booking vanishes unannounced (the pro calls the lesson
        // off first, which mails them). The lessons are locked, so a booking
        // made meanwhile either is seen here or waits and finds them gone.
        const toCome = (
          await tx
            .select({
              id: schedules.id,
              date: schedules.date,
              startTime: schedules.startTime,
            })
            .from(schedules)
            .where(
              and(
                eq(schedules.proId, userId),
                gte(schedules.date, japanDate(now)),
                // Not called off: a lesson marked 終了 before its start is
                // still one its participants booked.
                ne(schedules.statusRound, 'cancelled'),
              ),
            )
            .for('update')
        )
          .filter((s) => lessonStart(s) > now)
          .map((s) => s.id);
        if (toCome.length) {
          const [taken] = await tx
            .select({ id: reservations.scheduleId })
            .from(reservations)
            .where(
              and(
                inArray(reservations.scheduleId, toCome),
                inArray(reservations.status, ACTIVE),
              ),
            )
            .limit(1);
          const [waiting] = await tx
            .select({ id: waitlist.scheduleId })
            .from(waitlist)
            .where(inArray(waitlist.scheduleId, toCome))
            .limit(1);
          if (taken || waiting) throw new ApiError('Conflict');
        }
        // A pro's lessons take their payments and refunds with them (the
        // foreign keys cascade): while one of their lessons holds money paid
        // online (a hold, a payment, a refund owed or made), the account
        // stays, so no member's refund or receipt is lost (an admin suspends
        // it instead, which calls the lessons off and refunds them).
        const [money] = await tx
          .select({ id: payments.id })
          .from(payments)
          .innerJoin(schedules, eq(schedules.id, payments.scheduleId))
          .where(
            and(
              eq(schedules.proId, userId),
              inArray(payments.status, ['pending', 'paid', 'refunded']),
            ),
          )
          .limit(1);
        if (money) throw new ApiError('Conflict');
        // The member's own holds are let go (the place goes to the waitlist)
        // and their paid places in lessons still to come are refunded; the
        // payment rows stay (no foreign key to the member).
        const online = await tx
          .select({
            status: reservations.status,
            paymentStatus: reservations.paymentStatus,
            paymentId: reservations.paymentId,
            date: schedules.date,
            startTime: schedules.startTime,
          })
          .from(reservations)
          .innerJoin(schedules, eq(schedules.id, reservations.scheduleId))
          .where(placesHeldBy(userId, isNotNull(reservations.paymentId)));
        for (const r of online) {
          if (r.status === 'pending')
            await releaseHold(
              tx,
              r.paymentId!,
              'cancelled',
              now,
              rules,
              effects,
            );
          else if (
            r.paymentStatus === 'paid' &&
            lessonStart(r) > now &&
            (await queueRefund(tx, r.paymentId!, 'cancelled', now))
          )
            effects.refundsQueued++;
        }
        const booked = await tx
          .select({ scheduleId: reservations.scheduleId })
          .from(reservations)
          .where(placesHeldBy(userId));
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
        // The member's reviews would go with the cascade and leave the pros'
        // averages behind: taken off as /review/delete takes one off.
        const reviewed = await deleteReviews(tx, eq(reviews.userId, userId));
        await tx
          .update(messages)
          .set({ sender: null })
          .where(eq(messages.sender, userId));
        const [row] = await tx
          .delete(users)
          .where(eq(users.id, userId))
          .returning({ email: users.email });
        if (row) {
          await tx.delete(authAttempts).where(loginKeysOf(row.email));
          await tx
            .delete(loginSources)
            .where(eq(loginSources.email, row.email));
        }
        return {
          // Pros whose counters moved: their cached rows and search pages.
          changed: [...given.map((g) => g.target), ...reviewed.pros],
          freed: booked.map((b) => b.scheduleId),
        };
      });
      cache.evict(userId, ...done.changed);
      return {
        objects: objects.map((o) => o.keyName),
        freed: done.freed,
        effects,
      };
    },
  };
}
