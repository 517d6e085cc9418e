import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CheckinInputSchema, CheckinResultSchema } from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { appUrlOf } from '../config.js';
import { defineRoute } from '../lib/route.js';
import { hashToken, newRefreshToken } from '../lib/secrets.js';
import {
  PunchoutError,
  readSetupRequest,
  setupResponse,
  statusResponse,
} from '../punchout/cxml.js';

export const TICKET_TTL_MS = 5 * 60_000;
const MAX_XML_BYTES = 64 * 1024;

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export async function punchoutRoutes(app: FastifyInstance): Promise<void> {
  const { repos, config, clock, sessions } = app;

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
          const setup = readSetupRequest(req.body, (identity, secret) => {
            const buyer = config.punchoutBuyers.find(
              (b) => b.identity === identity,
            );
            if (!buyer || !same(buyer.secret, secret))
              throw new PunchoutError(
                401,
                'Unauthorized',
                'invalid credentials',
              );
            return buyer;
          });
          const { buyer, returnUrl } = setup;
          // Users go back only to the purchasing system's own configured origin (docs/security.md DP-02).
          if (returnUrl.origin !== buyer.returnOrigin)
            throw new PunchoutError(
              400,
              'Bad Request',
              'BrowserFormPost is not allowed for this buyer',
            );
          const ticket = newRefreshToken();
          await repos.punchout.addTicket(
            {
              buyer: buyer.identity,
              buyerCookie: setup.buyerCookie,
              formPostUrl: returnUrl.toString(),
              userRef: setup.userRef,
              userName: setup.userName,
              userEmail: setup.email ?? null,
              ticketHash: hashToken(ticket),
            },
            now,
            TICKET_TTL_MS,
          );
          const origin = appUrlOf(config);
          const startPage = `${origin.replace(/\/$/, '')}/#/checkin/${ticket}`;
          req.log.info(
            { event: 'punchout_setup', buyer: buyer.identity },
            'punch-out set up',
          );
          return setupResponse(startPage, now);
        } catch (e) {
          if (!(e instanceof PunchoutError)) throw e;
          req.log.info(
            { event: 'punchout_refused', status: e.code },
            'punch-out refused',
          );
          reply.code(e.code);
          return statusResponse(e, now);
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
      const redeemed = await repos.punchout.redeem(
        hashToken(input.ticket),
        now,
      );
      if (!redeemed) throw new ApiError('InvalidCode');
      const { session: row, buyerUserId } = redeemed;
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
