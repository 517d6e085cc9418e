import { and, asc, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import {
  TERMS_VERSION,
  type AuthUser,
  type LoginResult,
  type UserType,
} from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import { logins, refreshTokens, users } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import {
  hashToken,
  newRefreshToken,
  sealWith,
  unsealWith,
} from '../lib/secrets.js';
import type { Caller } from '../lib/route.js';
import { closeSocketsOf } from '../realtime/hub.js';
import { findBy } from '../repositories/queries.js';

export const REFRESH_ABSOLUTE_MS = 30 * 86_400_000;
export const REFRESH_IDLE_MS = 14 * 86_400_000;
/** Parallel refreshes from one client within this window get the same successor (docs/security.md TK-08). */
export const REFRESH_GRACE_MS = 10_000;
/** At most this many live logins per member; the oldest is revoked beyond it (TK-12). */
export const MAX_LOGINS = 10;

type SignAccess = (caller: Caller) => string;

type Principal = {
  id: string;
  userName: string;
  type: UserType | 'buyer';
  /** The 利用規約 version a member last agreed to (null: never); buyers have none. */
  termsVersion?: string | null;
};

/**
 * A punch-out buyer is reported as the client's BUYER type. A member also
 * says whether they agreed to the current 利用規約, so the web asks again
 * after a login with an older (or no) agreement; buyers are not members.
 */
const authUser = (u: Principal): AuthUser =>
  u.type === 'buyer'
    ? { id: u.id, userName: u.userName, type: 'BUYER' }
    : {
        id: u.id,
        userName: u.userName,
        type: u.type,
        termsAccepted: u.termsVersion === TERMS_VERSION,
      };

/**
 * Logins are refresh-token families. Every refresh rotates the token; showing
 * a rotated token after the grace window revokes the whole family (RFC 9700
 * §4.14.2, docs/security.md TK-07).
 */
export function sessionStore(db: Db, clock: Clock, signAccess: SignAccess) {
  const invalid = () => new ApiError('InvalidRefreshToken');
  const tokenByHash = (tokenHash: string) =>
    findBy(db, refreshTokens, refreshTokens.tokenHash, tokenHash);

  async function revokeAll(userId: string, keep: string[] = []) {
    await db.transaction(async (tx) => {
      await tx
        .update(logins)
        .set({ revokedAt: clock.now() })
        .where(
          and(
            eq(logins.userId, userId),
            isNull(logins.revokedAt),
            keep.length ? notInArray(logins.id, keep) : undefined,
          ),
        );
      await closeSocketsOf(tx, userId);
    });
  }

  async function revokeLogin(loginId: string) {
    await db
      .update(logins)
      .set({ revokedAt: clock.now() })
      .where(and(eq(logins.id, loginId), isNull(logins.revokedAt)));
  }

  return {
    async start(user: Principal): Promise<LoginResult> {
      const now = clock.now();
      const loginId = newId();
      const raw = newRefreshToken();
      await db.transaction(async (tx) => {
        await tx.insert(logins).values({
          id: loginId,
          userId: user.id,
          createdAt: now,
          lastUsedAt: now,
        });
        await tx
          .insert(refreshTokens)
          .values({ tokenHash: hashToken(raw), loginId, createdAt: now });
        const live = await tx
          .select({ id: logins.id })
          .from(logins)
          .where(and(eq(logins.userId, user.id), isNull(logins.revokedAt)))
          .orderBy(asc(logins.createdAt), asc(logins.id));
        const excess = live
          .slice(0, Math.max(0, live.length - MAX_LOGINS))
          .map((l) => l.id);
        if (excess.length)
          await tx
            .update(logins)
            .set({ revokedAt: now })
            .where(inArray(logins.id, excess));
      });
      return {
        token: { accessToken: signAccess(user), refreshToken: raw },
        user: authUser(user),
      };
    },

    async refresh(raw: string): Promise<LoginResult> {
      const now = clock.now();
      const [row] = await db
        .select({
          token: refreshTokens,
          login: logins,
          user: {
            id: users.id,
            userName: users.userName,
            type: users.type,
            termsVersion: users.termsVersion,
          },
          state: {
            suspendedAt: users.suspendedAt,
            tokensValidAfter: users.tokensValidAfter,
          },
        })
        .from(refreshTokens)
        .innerJoin(logins, eq(refreshTokens.loginId, logins.id))
        .innerJoin(users, eq(logins.userId, users.id))
        .where(eq(refreshTokens.tokenHash, hashToken(raw)))
        .limit(1);
      if (!row || row.login.revokedAt) throw invalid();
      const t = now.getTime();
      const { suspendedAt, tokensValidAfter } = row.state;
      if (
        t - row.login.createdAt.getTime() > REFRESH_ABSOLUTE_MS ||
        t - row.login.lastUsedAt.getTime() > REFRESH_IDLE_MS ||
        // A suspended member, or a login begun before a password reset or a
        // suspension: over, whether or not its revocation has committed yet.
        suspendedAt !== null ||
        (tokensValidAfter !== null && row.login.createdAt < tokensValidAfter)
      ) {
        await revokeLogin(row.login.id);
        throw invalid();
      }
      const pair = (refreshToken: string): LoginResult => ({
        token: { accessToken: signAccess(row.user), refreshToken },
        user: authUser(row.user),
      });
      /**
       * `work` (which signs the access token) in a transaction that first
       * locks the login while it is live: a revocation under way
       * (revokeAllAround) either committed before, and the refresh is
       * refused, or waits for this transaction, whose access token is then
       * signed before the tokensValidAfter that the change sets after it.
       */
      const whileLive = <T>(work: (tx: Tx) => Promise<T>) =>
        db.transaction(async (tx) => {
          const [live] = await tx
            .update(logins)
            .set({ lastUsedAt: now })
            .where(and(eq(logins.id, row.login.id), isNull(logins.revokedAt)))
            .returning({ id: logins.id });
          if (!live) throw invalid();
          return work(tx);
        });

      if (!row.token.rotatedAt) {
        const next = newRefreshToken();
        const rotated = await whileLive(async (tx) => {
          const done = await tx
            .update(refreshTokens)
            .set({ rotatedAt: now, successorSealed: sealWith(raw, next) })
            .where(
              and(
                eq(refreshTokens.tokenHash, row.token.tokenHash),
                isNull(refreshTokens.rotatedAt),
              ),
            )
            .returning({ h: refreshTokens.tokenHash });
          if (done.length === 0) return null;
          await tx.insert(refreshTokens).values({
            tokenHash: hashToken(next),
            loginId: row.login.id,
            createdAt: now,
          });
          return pair(next);
        });
        if (rotated) return rotated;
      }

      // Already rotated: a parallel refresh within the grace window gets the login's current token.
      const again = await tokenByHash(row.token.tokenHash);
      if (
        again?.rotatedAt &&
        again.successorSealed &&
        t - again.rotatedAt.getTime() <= REFRESH_GRACE_MS
      ) {
        let current = unsealWith(raw, again.successorSealed);
        for (let hop = 0; current && hop < 20; hop++) {
          const next = await tokenByHash(hashToken(current));
          if (!next) break;
          if (!next.rotatedAt) {
            const token = current;
            return whileLive(async () => pair(token));
          }
          current = next.successorSealed
            ? unsealWith(current, next.successorSealed)
            : null;
        }
      }
      await revokeLogin(row.login.id);
      throw invalid();
    },

    async logout(raw: string): Promise<void> {
      const [row] = await db
        .select({
          loginId: refreshTokens.loginId,
          revokedAt: logins.revokedAt,
          rotatedAt: refreshTokens.rotatedAt,
        })
        .from(refreshTokens)
        .innerJoin(logins, eq(refreshTokens.loginId, logins.id))
        .where(eq(refreshTokens.tokenHash, hashToken(raw)))
        .limit(1);
      if (!row || row.revokedAt) throw invalid();
      await revokeLogin(row.loginId);
    },

    /**
     * Password change, reset, suspension or account deletion: every login of
     * the member ends (TK-10), but those in `keep`, and every open socket of
     * theirs closes, on every instance (a socket's token is checked at the
     * upgrade only).
     */
    revokeAll,

    /**
     * Runs `change`, which moves the member's tokensValidAfter on (a
     * suspension, a password reset), between two revocations of all their
     * logins. The first one waits for refreshes under way (see refresh) and
     * keeps any other from starting, so every access token of those logins
     * was signed before `change` and is refused after it; the second ends
     * the logins begun meanwhile (refresh refuses them already, being older
     * than tokensValidAfter) and closes the sockets opened meanwhile.
     * Revoking in `change`'s own transaction would not do: the refresh that
     * the revocation waited for signs after tokensValidAfter was chosen.
     */
    async revokeAllAround<T>(
      userId: string,
      change: () => Promise<T>,
    ): Promise<T> {
      await revokeAll(userId);
      const done = await change();
      await revokeAll(userId);
      return done;
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
