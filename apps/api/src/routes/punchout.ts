import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { CheckinInputSchema, CheckinResultSchema } from '@proam/contract';
import { punchoutSessions, users } from '../db/schema.js';
import { sessionStore } from '../auth/sessions.js';
import { ApiError } from '../lib/api-error.js';
import { newId } from '../lib/ids.js';
import { defineRoute } from '../lib/route.js';
import { hashToken, newRefreshToken } from '../lib/secrets.js';
import { signAccessToken } from '../plugins/auth.js';
import type { Deps } from './deps.js';

export const TICKET_TTL_MS = 5 * 60_000;
const MAX_XML_BYTES = 64 * 1024;

const xmlEscape = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

function cxml(body: string, now: Date): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">',
    `<cXML payloadID="${newId()}@proam-connect" timestamp="${now.toISOString()}" xml:lang="ja-JP">`,
    `<Response>${body}</Response>`,
    '</cXML>',
  ].join('\n');
}
const status = (code: number, text: string, now: Date, detail = '') =>
  cxml(
    `<Status code="${code}" text="${xmlEscape(text)}">${xmlEscape(detail)}</Status>`,
    now,
  );

class PunchoutError extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
    readonly detail: string,
  ) {
    super(text);
  }
}

/**
 * Parses a cXML document without ever resolving external entities: a DOCTYPE
 * with an internal subset or any ENTITY declaration is refused outright
 * (entity expansion, XXE; SECURITY IV-09), and the external DTD is never fetched.
 */
function parseCxml(xml: string): Record<string, unknown> {
  if (/<!ENTITY/i.test(xml) || /<!DOCTYPE[^>]*\[/i.test(xml))
    throw new PunchoutError(
      400,
      'Bad Request',
      'DTD internal subsets and entities are not accepted',
    );
  try {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      processEntities: true,
      htmlEntities: false,
      trimValues: true,
    });
    return parser.parse(xml, true) as Record<string, unknown>;
  } catch {
    throw new PunchoutError(400, 'Bad Request', 'malformed cXML');
  }
}

type Node = Record<string, unknown> | string | undefined;
const at = (node: unknown, ...keys: string[]): Node => {
  let cur: unknown = node;
  for (const k of keys) {
    if (Array.isArray(cur)) cur = cur[0];
    cur =
      cur && typeof cur === 'object'
        ? (cur as Record<string, unknown>)[k]
        : undefined;
  }
  return (Array.isArray(cur) ? cur[0] : cur) as Node;
};
const text = (node: Node): string | undefined => {
  if (typeof node === 'string' || typeof node === 'number')
    return String(node).trim() || undefined;
  if (node && typeof node === 'object' && '#text' in node)
    return String(node['#text']).trim() || undefined;
  return undefined;
};
const list = (v: unknown): unknown[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export async function punchoutRoutes(
  app: FastifyInstance,
  { database, config, clock }: Deps,
): Promise<void> {
  const sessions = sessionStore(database.db, clock, (caller) =>
    signAccessToken(app, caller),
  );

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/xml', 'text/xml'],
      { parseAs: 'string', bodyLimit: MAX_XML_BYTES },
      (_req, body, done) => done(null, body),
    );
    scope.post(
      '/api/punchout/setup',
      {
        config: {
          auth: 'none',
          rateLimit: { max: 60, timeWindow: '1 minute' },
        },
        bodyLimit: MAX_XML_BYTES,
      },
      async (req, reply) => {
        const now = clock.now();
        reply.type('text/xml; charset=utf-8');
        try {
          if (typeof req.body !== 'string')
            throw new PunchoutError(
              400,
              'Bad Request',
              'expected a cXML document',
            );
          const doc = parseCxml(req.body);
          const root = at(doc, 'cXML');
          const sender = at(root, 'Header', 'Sender', 'Credential');
          const identity = text(at(sender, 'Identity')) ?? '';
          const secret = text(at(sender, 'SharedSecret')) ?? '';
          const buyer = config.punchoutBuyers.find(
            (b) => b.identity === identity,
          );
          if (!buyer || !same(buyer.secret, secret))
            throw new PunchoutError(401, 'Unauthorized', 'invalid credentials');
          const request = at(root, 'Request', 'PunchOutSetupRequest');
          if (!request || typeof request !== 'object')
            throw new PunchoutError(
              400,
              'Bad Request',
              'no PunchOutSetupRequest',
            );
          const buyerCookie = text(at(request, 'BuyerCookie'));
          const formPost = text(at(request, 'BrowserFormPost', 'URL'));
          const extrinsics = new Map(
            list((request as Record<string, unknown>).Extrinsic).map((e) => [
              String((e as Record<string, unknown>)['@name'] ?? ''),
              text(e as Node) ?? '',
            ]),
          );
          const contact = at(request, 'Contact');
          const email =
            extrinsics.get('UserEmail') || text(at(contact, 'Email'));
          const userRef =
            extrinsics.get('UniqueName') || extrinsics.get('UserId') || email;
          const userName =
            text(at(contact, 'Name')) ||
            extrinsics.get('UserFullName') ||
            userRef;
          if (!buyerCookie || !formPost || !userRef || !userName)
            throw new PunchoutError(
              400,
              'Bad Request',
              'BuyerCookie, BrowserFormPost and a user are required',
            );
          let returnUrl: URL;
          try {
            returnUrl = new URL(formPost);
          } catch {
            throw new PunchoutError(
              400,
              'Bad Request',
              'BrowserFormPost is not a URL',
            );
          }
          // Users go back only to the purchasing system's own configured origin (SECURITY DP-02).
          if (returnUrl.origin !== buyer.returnOrigin)
            throw new PunchoutError(
              400,
              'Bad Request',
              'BrowserFormPost is not allowed for this buyer',
            );
          if (
            [buyerCookie, userRef, userName, email ?? ''].some(
              // eslint-disable-next-line no-control-regex -- control characters are what is refused
              (v) => v.length > 254 || /[\u0000-\u001f]/.test(v),
            )
          )
            throw new PunchoutError(
              400,
              'Bad Request',
              'a field is too long or malformed',
            );

          const ticket = newRefreshToken();
          await database.db.insert(punchoutSessions).values({
            id: newId(),
            buyer: buyer.identity,
            buyerCookie,
            formPostUrl: returnUrl.toString(),
            userRef,
            userName,
            userEmail: email ?? null,
            ticketHash: hashToken(ticket),
            expiresAt: new Date(now.getTime() + TICKET_TTL_MS),
            createdAt: now,
          });
          const origin =
            config.publicUrl ?? `http://${config.host}:${config.port}`;
          const startPage = `${origin.replace(/\/$/, '')}/#/checkin/${ticket}`;
          req.log.info(
            { event: 'punchout_setup', buyer: buyer.identity },
            'punch-out set up',
          );
          return cxml(
            `<Status code="200" text="OK"/><PunchOutSetupResponse><StartPage><URL>${xmlEscape(startPage)}</URL></StartPage></PunchOutSetupResponse>`,
            now,
          );
        } catch (e) {
          if (!(e instanceof PunchoutError)) throw e;
          req.log.info(
            { event: 'punchout_refused', status: e.code },
            'punch-out refused',
          );
          reply.code(e.code);
          return status(e.code, e.text, now, e.detail);
        }
      },
    );
  });

  defineRoute(app, {
    path: '/punchout/checkin',
    auth: 'none',
    summary:
      '(beyond the seed) Redeem a one-time punch-out ticket (5 minutes): the check-in data and a read-only buyer session',
    tags: ['punchout'],
    input: CheckinInputSchema,
    output: CheckinResultSchema,
    rateLimit: { max: 30, timeWindow: '1 minute' },
    handler: async ({ input }) => {
      const now = clock.now();
      // Conditional, so a ticket works once even when two tabs race for it.
      const [row] = await database.db
        .update(punchoutSessions)
        .set({ redeemedAt: now })
        .where(
          and(
            eq(punchoutSessions.ticketHash, hashToken(input.ticket)),
            isNull(punchoutSessions.redeemedAt),
            gt(punchoutSessions.expiresAt, now),
          ),
        )
        .returning();
      if (!row) throw new ApiError('InvalidCode');
      const buyerUserId = newId();
      await database.db.insert(users).values({
        id: buyerUserId,
        type: 'buyer',
        email: `punchout-${row.id.toLowerCase()}@buyer.invalid`,
        passwordHash: '!',
        userName: row.userName,
        createdAt: now,
      });
      await database.db
        .update(punchoutSessions)
        .set({ buyerUserId })
        .where(eq(punchoutSessions.id, row.id));
      const { token } = await sessions.start({
        id: buyerUserId,
        userName: row.userName,
        type: 'buyer',
      });
      return {
        checkin: {
          punchOutSetupRequest: {
            userId: row.userRef,
            userName: row.userName,
            buyer: row.buyer,
            buyerCookie: row.buyerCookie,
            browserFormPost: row.formPostUrl,
          },
          checkedInAt: now.toISOString(),
        },
        token,
        user: {
          id: row.userRef,
          userName: row.userName,
          type: 'BUYER' as const,
        },
      };
    },
  });
}
