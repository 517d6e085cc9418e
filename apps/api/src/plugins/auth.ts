import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import { sessionStore, type SessionStore } from '../auth/sessions.js';
import { LRUCache } from 'lru-cache';
import type { UserType } from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import type { ApiClient } from '../config.js';
import type { AuthKind, Caller } from '../lib/route.js';

export const ACCESS_TOKEN_SECONDS = 900;

/** `iatMs`: the issue time in milliseconds, so a password reset can end the tokens issued before it. */
type AccessClaims = {
  sub: string;
  typ: UserType | 'buyer';
  kind: 'access';
  iatMs?: number;
};

/** What the token check needs of a member's row (undefined: no such member any more). */
export type MemberState = {
  type: string;
  tokensValidAfter: Date | null;
};

const USER_TYPES: readonly string[] = ['pro', 'amature', 'admin', 'buyer'];

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Client Basic credentials identify an app build; they ship inside it, so they are not a secret control. */
function checkClient(req: FastifyRequest, clients: ApiClient[]): void {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(req.headers.authorization ?? '');
  const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
  const i = decoded.indexOf(':');
  const name = decoded.slice(0, i);
  const code = decoded.slice(i + 1);
  const ok =
    i > 0 && clients.some((c) => c.name === name && sameSecret(c.code, code));
  if (!ok) throw new ApiError('InvalidClient');
}

/**
 * Access tokens: HS256 pinned on both sign and verify, `exp` required, and a
 * `kind` claim so a token minted for another purpose is never taken as one.
 */
declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
  }
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, userCache } = app;
    const opts = {
      jwtSecret: config.jwtSecret,
      apiClients: config.apiClients,
      /**
       * The member's row, from the member cache: read on every call. Misses go
       * through its batched loader, so a burst of connects (a reconnect storm
       * after a restart) costs a few queries rather than one per socket.
       */
      member: (id: string): Promise<MemberState | undefined> =>
        userCache.member(id),
      /** The same when it is cached, without waiting (most calls). */
      cachedMember: (id: string): MemberState | undefined => userCache.peek(id),
    };
    await app.register(fastifyJwt, {
      secret: opts.jwtSecret,
      sign: { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_SECONDS },
      verify: {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'sub'],
      },
    });

    // A member's app sends the same token for up to 15 minutes: a verified token is
    // remembered until its own `exp`. Ours rather than fast-jwt's cache, which keys entries by
    // a SHA-256 of the token (4 % of an authenticated read) and warns on any other key: the
    // token itself cannot collide, and it is in this process's memory anyway. Failures are
    // not remembered.
    type Verified = { caller: Caller; issuedMs: number };
    const verified = new LRUCache<string, Verified>({ max: 10_000 });
    const verify = (token: string): Verified => {
      const known = verified.get(token);
      if (known) return known;
      let claims: AccessClaims & { exp: number };
      try {
        claims = app.jwt.verify<AccessClaims & { exp: number }>(token);
        if (claims.kind !== 'access' || !USER_TYPES.includes(claims.typ))
          throw new Error('kind');
      } catch {
        throw new ApiError('InvalidAccessToken');
      }
      const fresh: Verified = Object.freeze({
        caller: Object.freeze({ id: claims.sub, type: claims.typ }),
        // Tokens from before iatMs existed count as issued at the epoch.
        issuedMs: claims.iatMs ?? 0,
      });
      const ttl = claims.exp * 1000 - Date.now();
      if (ttl > 0) verified.set(token, fresh, { ttl });
      return fresh;
    };
    // A signature alone would keep a deleted member, a member whose type was changed, or the
    // holder of a token issued before a password reset in for up to 15 minutes (SECURITY
    // TK-11, AC-08): the member's row, cached and dropped on every change, says otherwise.
    // Buyers are punch-out visitors, not member rows.
    const stillValid = (
      { caller, issuedMs }: Verified,
      row: MemberState | undefined,
    ) =>
      row !== undefined &&
      row.type === caller.type &&
      (row.tokensValidAfter === null ||
        issuedMs >= row.tokensValidAfter.getTime());
    const bearer = async (req: FastifyRequest): Promise<Caller | null> => {
      const m = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(
        req.headers.authorization ?? '',
      );
      if (!m) return null;
      const token = verify(m[1]!);
      const { id, type } = token.caller;
      if (type === 'buyer') return token.caller;
      // No await on a cache hit: each one is a turn of the microtask queue on the hottest path.
      const row = opts.cachedMember(id) ?? (await opts.member(id));
      if (!stillValid(token, row)) throw new ApiError('InvalidAccessToken');
      return token.caller;
    };

    app.decorateRequest('caller', null);
    // Logins (refresh families) are started by the auth routes and the punch-out check-in.
    app.decorate(
      'sessions',
      sessionStore(app.database.db, app.clock, (caller) =>
        signAccessToken(app, caller),
      ),
    );
    app.decorate(
      'authenticate',
      async (req: FastifyRequest, kind: AuthKind) => {
        switch (kind) {
          case 'none':
            return null;
          case 'client':
            checkClient(req, opts.apiClients);
            return null;
          case 'optionalBearer':
            return req.headers.authorization ? bearer(req) : null;
          case 'bearer': {
            const caller = await bearer(req);
            if (!caller) throw new ApiError('InvalidAccessToken');
            return caller;
          }
          case 'refresh':
            // Refresh tokens are opaque and checked by the auth routes themselves.
            return null;
        }
      },
    );
  },
  { name: 'auth', dependencies: ['repositories'] },
);

export const signAccessToken = (app: FastifyInstance, caller: Caller): string =>
  app.jwt.sign({
    sub: caller.id,
    typ: caller.type,
    kind: 'access',
    iatMs: Date.now(),
  } satisfies AccessClaims);
