import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import { NgEnvelopeSchema, OkEnvelope, type UserType } from '@proam/contract';
import type { Static, TObject, TSchema } from 'typebox';
import { readInput } from './input.js';
import { ApiError } from './api-error.js';

/**
 * The credential a call carries, as docs/api.md names the kinds: none, a
 * bearer access token (optional or required), the app's Basic client
 * credentials, or a refresh token.
 */
export type AuthKind =
  'none' | 'optionalBearer' | 'bearer' | 'client' | 'refresh';

/** `buyer`: a purchasing-system user checked in by punch-out; read-only, on routes that allow it. */
export type CallerType = UserType | 'buyer';
export type Caller<T extends CallerType = CallerType> = { id: string; type: T };
/** Who bearer routes admit unless they declare `roles`. */
export type Member = 'pro' | 'amature' | 'admin';

/**
 * How a route declares who may call it. `admin` is a bearer route for
 * company staff. Bearer routes admit members (pros, amateurs, admins) unless
 * `roles` says otherwise; buyers only where `roles` names them.
 */
export type Access = AuthKind | 'admin';

/**
 * The caller a handler gets: never null where a token is required, and of one
 * of the types the route admits.
 */
export type CallerOf<A extends Access, R extends CallerType> = A extends 'admin'
  ? Caller<'admin'>
  : A extends 'bearer'
    ? Caller<R>
    : A extends 'optionalBearer'
      ? Caller<R> | null
      : null;

export type HandlerContext<I, C> = {
  input: I;
  req: FastifyRequest;
  reply: FastifyReply;
  caller: C;
};

/** Input fields that hold a member id (the owner checks name one). */
type IdField<I> = {
  [K in keyof I]-?: NonNullable<I[K]> extends string ? K : never;
}[keyof I];

/**
 * "This input names the caller": `field` must be the caller's own id (when
 * sent), else 403 Forbidden; with `admins: true` an admin may name anyone.
 */
export type OwnerRule<I> = { field: IdField<I>; admins: boolean };

export type RouteDef<
  I extends TObject,
  O extends TSchema,
  A extends Access,
  R extends CallerType,
> = {
  path: `/${string}`;
  auth: A;
  /** Who among bearer callers may call; members (pro, amature, admin) by default. */
  roles?: A extends 'bearer' | 'optionalBearer' ? readonly R[] : never;
  owner?: A extends 'bearer' ? OwnerRule<Static<I>> : never;
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
  /**
   * The handler answers objects that a cache keeps and hands out again (the
   * public cache): each is serialised once and later answers reuse that JSON.
   * A string, not bytes: Node writes a string answer with its headers in one
   * write, a Buffer in two (measured slower). Such an answer must never be
   * changed once returned.
   */
  cachedAnswers?: boolean;
  handler: (
    ctx: HandlerContext<Static<I>, CallerOf<A, R>>,
  ) => Promise<Static<O>>;
};

/** Bearer routes admit these unless they declare `roles`: a buyer only reads, where allowed. */
export const MEMBERS: readonly Member[] = ['pro', 'amature', 'admin'];
/** Members and punch-out buyers: the read-only routes a buyer may call. */
export const MEMBERS_AND_BUYERS: readonly CallerType[] = [...MEMBERS, 'buyer'];

/**
 * Rate-limit key for member calls: the verified member rather than the IP, so
 * members behind one office or carrier NAT don't share a budget (SECURITY
 * RL-01), and rather than the token string, so a refresh (or a made-up token)
 * never buys a fresh budget. The caller is known here: routes authenticate in
 * their first onRequest hook, before the rate limit's hook runs. Anonymous
 * calls are counted per IP.
 */
export const perCaller = (req: FastifyRequest): string =>
  req.caller ? `u:${req.caller.id}` : `ip:${req.ip}`;

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
  interface FastifyRequest {
    /** Set by the route's first onRequest hook; null for anonymous calls. */
    caller: Caller | null;
  }
}

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
    ? { ...value, nullable: true }
    : schema;
}

const errorResponses = {
  '4xx': NgEnvelopeSchema,
  '5xx': NgEnvelopeSchema,
};

function authenticateFirst(
  app: FastifyInstance,
  kind: AuthKind,
  roles: readonly CallerType[],
): onRequestAsyncHookHandler {
  return async (req) => {
    const caller = await app.authenticate(req, kind);
    if (caller && !roles.includes(caller.type)) throw new ApiError('Forbidden');
    req.caller = caller;
  };
}

/**
 * Declares one POST call of docs/api.md with who may call it. Inputs are read
 * by `readInput` (query or body, body wins, strict), so Fastify's own body
 * validation is switched off for the route; the schemas still document it in
 * OpenAPI and the 200 schema limits what is serialised.
 */
export function defineRoute<
  I extends TObject,
  O extends TSchema,
  A extends Access,
  R extends CallerType = Member,
>(app: FastifyInstance, def: RouteDef<I, O, A, R>): void {
  const kind: AuthKind = def.auth === 'admin' ? 'bearer' : def.auth;
  const roles: readonly CallerType[] =
    def.auth === 'admin' ? ['admin'] : (def.roles ?? MEMBERS);
  const owner = def.owner as OwnerRule<Static<I>> | undefined;
  const bodySchema = nullableObject(def.output);
  const okSchema = OkEnvelope(bodySchema);
  const serialised = def.cachedAnswers ? new WeakMap<object, string>() : null;
  // One object for the route: Fastify compiles a serialiser per schema object.
  const bodyWriter: Record<string, unknown> = { ...bodySchema };
  app.route({
    method: 'POST',
    url: `/api${def.path}`,
    bodyLimit: def.bodyLimit,
    config: {
      auth: kind,
      ...(def.rateLimit ? { rateLimit: def.rateLimit } : {}),
    },
    schema: {
      summary: def.summary,
      tags: def.tags,
      body: def.input,
      response: {
        200: okSchema,
        ...errorResponses,
      },
    },
    validatorCompiler: () => () => true,
    // Who calls is settled before the body is read (an upload's 8 MiB is never
    // parsed for a stranger) and before the rate limit, whose hook the plugin
    // appends after this one and which keys member budgets by `req.caller`.
    onRequest: authenticateFirst(app, kind, roles),
    handler: async (req, reply) => {
      const input = readInput(def.input, req);
      const caller = req.caller;
      if (owner && caller) {
        const named = input[owner.field] as string | undefined;
        if (
          named !== undefined &&
          named !== caller.id &&
          !(owner.admins && caller.type === 'admin')
        )
          throw new ApiError('Forbidden');
      }
      const body = await def.handler({
        input,
        req,
        reply,
        // What authenticateFirst admitted: the kind's caller, of one of the roles.
        caller: caller as CallerOf<A, R>,
      });
      if (serialised && typeof body === 'object' && body !== null) {
        let json = serialised.get(body);
        if (!json) {
          // An array too: fast-json-stringify writes any JSON value.
          json = reply.serializeInput(body, bodyWriter);
          serialised.set(body, json);
        }
        // The envelope around the stored JSON, as the 200 schema writes it
        // (reqId is a ULID: nothing in it to escape).
        return reply
          .type('application/json; charset=utf-8')
          .send(`{"status":"OK","reqId":"${req.id}","body":${json}}`);
      }
      return { status: 'OK' as const, reqId: req.id, body };
    },
  });
}
