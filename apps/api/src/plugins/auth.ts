import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import type { UserType } from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import type { ApiClient } from '../config.js';
import type { AuthKind, Caller } from '../lib/route.js';

export const ACCESS_TOKEN_SECONDS = 900;

type AccessClaims = { sub: string; typ: UserType | 'buyer'; kind: 'access' };

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
export async function registerAuth(
  app: FastifyInstance,
  opts: { jwtSecret: string; apiClients: ApiClient[] },
): Promise<void> {
  await app.register(fastifyJwt, {
    secret: opts.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_SECONDS },
    verify: {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub'],
      // A member's app sends the same token for up to 15 minutes: remember verified
      // tokens (fast-jwt keeps each only until its own `exp`, keyed by its hash).
      cache: 10_000,
    },
  });

  const bearer = async (req: FastifyRequest): Promise<Caller | null> => {
    const m = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(
      req.headers.authorization ?? '',
    );
    if (!m) return null;
    try {
      const claims = app.jwt.verify<AccessClaims>(m[1]!);
      if (claims.kind !== 'access' || !USER_TYPES.includes(claims.typ))
        throw new Error('kind');
      return { id: claims.sub, type: claims.typ };
    } catch {
      throw new ApiError('InvalidAccessToken');
    }
  };

  app.decorate('authenticate', async (req: FastifyRequest, kind: AuthKind) => {
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
  });
}

export const signAccessToken = (app: FastifyInstance, caller: Caller): string =>
  app.jwt.sign({
    sub: caller.id,
    typ: caller.type,
    kind: 'access',
  } satisfies AccessClaims);
