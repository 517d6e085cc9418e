import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  NgEnvelopeSchema,
  OkEnvelope,
  type AuthUser,
  type UserType,
} from '@proam/contract';
import type { Static, TObject, TSchema } from 'typebox';
import { readInput } from './input.js';
import { ApiError } from './api-error.js';

/** Who may call a route, as spec/API.md names the kinds. */
export type AuthKind =
  'none' | 'optionalBearer' | 'bearer' | 'client' | 'refresh';

/** `buyer`: a purchasing-system user checked in by punch-out; read-only, on routes that allow it. */
export type Caller = { id: string; type: UserType | 'buyer' };

export type HandlerContext<I> = {
  input: I;
  req: FastifyRequest;
  reply: FastifyReply;
  /** The authenticated member, or null for anonymous calls. */
  caller: Caller | null;
};

export type RouteDef<I extends TObject, O extends TSchema> = {
  path: `/${string}`;
  auth: AuthKind;
  summary: string;
  tags: string[];
  input: I;
  output: O;
  /** Per-route rate limit (@fastify/rate-limit route config). */
  rateLimit?: {
    max: number;
    timeWindow: string | number;
    keyGenerator?: (req: FastifyRequest) => string;
  };
  bodyLimit?: number;
  /** Buyers (punch-out check-in) may call this read-only route. */
  buyer?: 'allow';
  handler: (ctx: HandlerContext<Static<I>>) => Promise<Static<O>>;
};

/**
 * Rate-limit key for member calls: per token rather than per IP, so members
 * behind one office or carrier NAT don't share a budget (SECURITY RL-01).
 */
export const perCaller = (req: FastifyRequest): string => {
  const auth = req.headers.authorization;
  return auth
    ? `t:${createHash('sha256').update(auth).digest('base64url')}`
    : `ip:${req.ip}`;
};

export type Authenticator = (
  req: FastifyRequest,
  kind: AuthKind,
) => Promise<Caller | null>;

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: Authenticator;
  }
  interface FastifyContextConfig {
    auth?: AuthKind;
  }
}

export type AuthUserOf = AuthUser;

type SchemaShape = { type?: unknown; anyOf?: SchemaShape[] };

/**
 * `X | null` written as OpenAPI 3.0 writes it (`nullable`). fast-json-stringify
 * serialises that directly, whereas for an `anyOf` it validates every answer
 * with Ajv to choose the branch (2 % of an authenticated /user/read).
 */
export function nullableObject(schema: TSchema): TSchema {
  const branches = (schema as SchemaShape).anyOf;
  if (branches?.length !== 2) return schema;
  const [value, none] =
    branches[0]?.type === 'null' ? [branches[1], branches[0]] : branches;
  return value?.type === 'object' && none?.type === 'null'
    ? ({ ...value, nullable: true } as TSchema)
    : schema;
}

const errorResponses = {
  '4xx': NgEnvelopeSchema,
  '5xx': NgEnvelopeSchema,
};

/**
 * Declares one POST call of spec/API.md. Inputs are read by `readInput`
 * (query or body, body wins, strict), so Fastify's own body validation is
 * switched off for the route; the schemas still document it in OpenAPI and
 * the 200 schema limits what is serialised.
 */
export function defineRoute<I extends TObject, O extends TSchema>(
  app: FastifyInstance,
  def: RouteDef<I, O>,
): void {
  app.route({
    method: 'POST',
    url: `/api${def.path}`,
    bodyLimit: def.bodyLimit,
    config: {
      auth: def.auth,
      ...(def.rateLimit ? { rateLimit: def.rateLimit } : {}),
    },
    schema: {
      summary: def.summary,
      tags: def.tags,
      body: def.input,
      response: {
        200: OkEnvelope(nullableObject(def.output)),
        ...errorResponses,
      },
    },
    validatorCompiler: () => () => true,
    handler: async (req, reply) => {
      const caller = await app.authenticate(req, def.auth);
      // A buyer sees the public site and pros' profiles, and changes nothing.
      if (caller?.type === 'buyer' && def.buyer !== 'allow')
        throw new ApiError('Forbidden');
      const input = readInput(def.input, req);
      const body = await def.handler({ input, req, reply, caller });
      return { status: 'OK' as const, reqId: req.id, body };
    },
  });
}
