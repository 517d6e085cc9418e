import { setTimeout as sleep } from 'node:timers/promises';
import { TERMS_VERSION } from '@proam/contract';
import { DEMO_PASSWORD } from '../../src/db/seed.js';
import { payments, refunds } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import type { Harness } from '../helper.js';

/**
 * The access matrix: for every route of the app, what each actor gets back.
 * One line per route, one column per actor; access-matrix.test.ts fails on a
 * route of the app without a line here (and on a line without a route).
 *
 * Actors: anon (no Authorization), amaA = ama1, amaB = ama2, pro = pro1,
 * oPro = pro2, admin, buyer (a punch-out check-in session), and on routes
 * that take app-client credentials also client (Basic web:proam-web-dev) and
 * badCli (a wrong client code). Each actor sends the credential of its kind
 * that the route's declared auth asks for: an access token on bearer routes
 * (also on none/client routes, where it must not matter or must not pass), a
 * refresh token of its own on refresh routes.
 *
 * Every request names someone else's resource unless the actor may act on
 * it (see REQUESTS): the only reason a cell can be refused is permission.
 *
 * Cells: OK = 200 OK · 401T = 401 InvalidAccessToken · 401R = 401
 * InvalidRefreshToken · 401C = 401 InvalidClient · 403 = 403 Forbidden ·
 * 401X = 401 cXML <Status> (the punch-out setup speaks cXML, not envelopes) ·
 * OFF = 409 Conflict and OFF404 = 404 NotFound: the matrix runs with online
 * payment off, where a caller who passed the permission check has nothing to
 * pay online (payment.test.ts covers these routes with payments on).
 */
export const EXPECTED = `
route                                    anon  amaA  amaB  pro   oPro  admin buyer client badCli
# operations and public reads: no credentials needed; a token sent anyway changes nothing
GET  /healthz                            OK    OK    OK    OK    OK    OK    OK
GET  /readyz                             OK    OK    OK    OK    OK    OK    OK
GET  /api/openapi.json                   OK    OK    OK    OK    OK    OK    OK
POST /api/news/read                      OK    OK    OK    OK    OK    OK    OK
POST /api/news/readAll                   OK    OK    OK    OK    OK    OK    OK
POST /api/competition/read               OK    OK    OK    OK    OK    OK    OK
# public writes (auth none): anyone may register, ask for codes, write to the company, check in
POST /api/contact/create                 OK    OK    OK    OK    OK    OK    OK
POST /api/auth/code                      OK    OK    OK    OK    OK    OK    OK
POST /api/auth/code/reset                OK    OK    OK    OK    OK    OK    OK
POST /api/user/create                    OK    OK    OK    OK    OK    OK    OK
POST /api/punchout/checkin               OK    OK    OK    OK    OK    OK    OK
# punch-out setup: the purchasing system's shared secret in the cXML is the credential
POST /api/punchout/setup                 OK    OK    OK    OK    OK    OK    OK    OK     401X
# client routes: only the app's Basic credentials pass; a member's bearer token is not one
POST /api/auth/login                     401C  401C  401C  401C  401C  401C  401C  OK     401C
POST /api/auth/update                    401C  401C  401C  401C  401C  401C  401C  OK     401C
POST /api/auth/delete                    401C  401C  401C  401C  401C  401C  401C  OK     401C
# refresh routes: each actor presents its own refresh token (a buyer's session refreshes as BUYER)
POST /api/auth/handshake                 401R  OK    OK    OK    OK    OK    OK
POST /api/auth/refresh                   401R  OK    OK    OK    OK    OK    OK
POST /api/auth/logout                    401R  OK    OK    OK    OK    OK    OK
# users: reads for any member; a profile is changed by its owner or an admin
# buyer: a read-only session; it may call the routes lib/route.ts marks buyer: 'allow' (a deliberate
# widening of docs/security.md AC-05, which limits BUYER to punch-out routes; punchout.test.ts relies on it).
# A buyer reads pros only: user/read answers null and user/getByIdList leaves amateurs out (checked below).
POST /api/user/read                      401T  OK    OK    OK    OK    OK    OK
POST /api/user/update                    401T  OK    403   403   403   OK    403
POST /api/user/getByIdList               401T  OK    OK    OK    OK    OK    OK
POST /api/user/updateImageInfo           401T  OK    403   403   403   403   403
POST /api/users/amature/all              401T  403   403   OK    OK    OK    403
POST /api/users/amature/newer            401T  403   403   OK    OK    OK    403
POST /api/users/pro/all                  401T  OK    OK    OK    OK    OK    OK
POST /api/users/pro/condition            401T  OK    OK    OK    OK    OK    OK
# likes
POST /api/user/like                      401T  OK    403   403   403   OK    403
POST /api/user/likedBy                   401T  403   403   OK    403   OK    403
POST /api/user/likeCount                 401T  OK    OK    OK    OK    OK    OK
POST /api/user/likeCreate                401T  OK    403   403   403   403   403
POST /api/user/likeDelete                401T  OK    403   403   403   403   403
# storage: members keep their own images; admins may delete any, not replace it
POST /api/storage/upload                 401T  OK    OK    OK    OK    OK    403
POST /api/storage/update                 401T  OK    403   403   403   403   403
POST /api/storage/delete                 401T  OK    403   403   403   OK    403
# schedules: reads are open to members (what they show is checked per cell); writes by the owning pro or an admin
POST /api/schedule/getById               401T  OK    OK    OK    OK    OK    OK
POST /api/schedule/getActive             401T  OK    OK    OK    OK    OK    OK
POST /api/schedule/getByDate             401T  OK    OK    OK    OK    OK    OK
POST /api/schedule/create                401T  403   403   OK    403   OK    403
POST /api/schedule/update                401T  403   403   OK    403   OK    403
POST /api/schedule/updateRound           401T  403   403   OK    403   OK    403
POST /api/schedule/reserve               401T  OK    OK    403   403   403   403
POST /api/schedule/cancel                401T  OK    403   403   403   403   403
POST /api/schedule/delete                401T  403   403   OK    403   OK    403
POST /api/schedule/callOff               401T  403   403   OK    403   OK    403
POST /api/schedule/waitlistJoin          401T  OK    OK    403   403   403   403
POST /api/schedule/waitlistLeave         401T  OK    OK    OK    OK    OK    403
# reviews: written by a participant, edited by its author, answered by the reviewed pro
POST /api/review/create                  401T  OK    403   403   403   403   403
POST /api/review/update                  401T  OK    403   403   403   403   403
POST /api/review/reply                   401T  403   403   OK    403   403   403
POST /api/review/delete                  401T  OK    403   403   403   OK    403
POST /api/review/list                    401T  OK    OK    OK    OK    OK    403
# blocks and reports: the caller's own; admins resolve reports
POST /api/user/block                     401T  OK    OK    OK    OK    OK    403
POST /api/user/unblock                   401T  OK    OK    OK    OK    OK    403
POST /api/user/blocks                    401T  OK    OK    OK    OK    OK    403
POST /api/report/create                  401T  OK    OK    OK    OK    OK    403
# notification settings: the caller's own
POST /api/user/notificationSettings      401T  OK    OK    OK    OK    OK    403
POST /api/user/notificationSettingsUpdate 401T  OK    OK    OK    OK    OK    403
POST /api/user/acceptTerms               401T  OK    OK    OK    OK    OK    403
# chat: the lesson's participants (pro P and amateur A) only; admins are not participants
POST /api/roundLesson/message            401T  OK    403   OK    403   403   403
POST /api/roundLesson/getMessage         401T  OK    403   OK    403   403   403
POST /api/roundLesson/messageReaded      401T  OK    403   OK    403   403   403
POST /api/notification/unstepRoundLesson 401T  OK    403   403   403   403   403
POST /api/roundLesson/lessons            401T  OK    403   403   403   403   403
GET  /api/ws                             401T  OK    OK    OK    OK    OK    OK
# admin only
POST /api/competition/create             401T  403   403   403   403   OK    403
POST /api/competition/update             401T  403   403   403   403   OK    403
POST /api/competition/delete             401T  403   403   403   403   OK    403
POST /api/news/create                    401T  403   403   403   403   OK    403
POST /api/news/update                    401T  403   403   403   403   OK    403
POST /api/news/delete                    401T  403   403   403   403   OK    403
POST /api/news/adminList                 401T  403   403   403   403   OK    403
POST /api/contact/list                   401T  403   403   403   403   OK    403
POST /api/contact/update                 401T  403   403   403   403   OK    403
POST /api/audit/list                     401T  403   403   403   403   OK    403
POST /api/admin/mailOutbox               401T  403   403   403   403   OK    403
POST /api/admin/users                    401T  403   403   403   403   OK    403
POST /api/admin/verifyPro                401T  403   403   403   403   OK    403
POST /api/admin/suspend                  401T  403   403   403   403   OK    403
POST /api/admin/reports                  401T  403   403   403   403   OK    403
POST /api/admin/reportResolve            401T  403   403   403   403   OK    403
POST /api/admin/reportContexts           401T  403   403   403   403   OK    403
POST /api/admin/stats                    401T  403   403   403   403   OK    403
# online payment: holds and confirmations by amateurs (payments off here: OFF); Stripe's webhook
# carries Stripe's signature, not a member's credential (off: 404 for everyone)
POST /api/payment/start                  401T  OFF   OFF   403   403   403   403
POST /api/payment/confirm                401T  OFF   OFF   403   403   403   403
POST /api/payment/webhook                OFF404 OFF404 OFF404 OFF404 OFF404 OFF404 OFF404
# payment records: the caller's own; a pro's statement for the pro or an admin; refunds for admins
POST /api/payment/list                   401T  OK    OK    OK    OK    OK    403
POST /api/payment/statement              401T  403   403   OK    403   OK    403
POST /api/payment/statements             401T  403   403   403   403   OK    403
POST /api/payment/refunds                401T  403   403   403   403   OK    403
POST /api/payment/refundRetry            401T  403   403   403   403   OK    403
`;

export const ACTORS = [
  'anon',
  'amaA',
  'amaB',
  'pro',
  'oPro',
  'admin',
  'buyer',
  'client',
  'badCli',
] as const;
export type Actor = (typeof ACTORS)[number];

/** A cell's expected answer: HTTP status and, for envelopes, the NG code. */
export const OUTCOMES = {
  OK: { status: 200 },
  '401T': { status: 401, code: 'InvalidAccessToken' },
  '401R': { status: 401, code: 'InvalidRefreshToken' },
  '401C': { status: 401, code: 'InvalidClient' },
  '403': { status: 403, code: 'Forbidden' },
  '401X': { status: 401, cxml: true },
  OFF: { status: 409, code: 'Conflict' },
  OFF404: { status: 404, code: 'NotFound' },
} as const satisfies Record<
  string,
  { status: number; code?: string; cxml?: boolean }
>;
export type Outcome = keyof typeof OUTCOMES;

export type ExpectedRow = {
  route: string;
  cells: { actor: Actor; outcome: Outcome }[];
};

/** Parses EXPECTED; throws on a malformed line so a typo cannot drop cells. */
export function expectedRows(text = EXPECTED): ExpectedRow[] {
  const rows: ExpectedRow[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('route ')) continue;
    const [method, url, ...outcomes] = line.split(/\s+/);
    if (outcomes.length !== 7 && outcomes.length !== 9)
      throw new Error(`access matrix: 7 or 9 cells expected: ${line}`);
    rows.push({
      route: `${method} ${url}`,
      cells: outcomes.map((o, i) => {
        if (!(o in OUTCOMES))
          throw new Error(`access matrix: unknown cell ${o}: ${line}`);
        return { actor: ACTORS[i]!, outcome: o as Outcome };
      }),
    });
  }
  return rows;
}

/** Resources made before the matrix runs (access-matrix.test.ts). */
export type Fixture = {
  ids: Record<'ama1' | 'ama2' | 'ama5' | 'pro1' | 'pro2' | 'admin', string>;
  /** An open report (by amateur B) for admins to resolve. */
  report: string;
  /** Pro P's lessons; amateur A has reserved `chat` and `cancel`, amateur B none. */
  lesson: {
    chat: { id: string; date: string };
    open: string;
    cancel: string;
    roundDate: string;
    deleteByPro: string;
    deleteByAdmin: string;
    callOffByPro: string;
    callOffByAdmin: string;
    /** Full with another amateur's reservation (the waitlist). */
    full: string;
    /** A date on which pro P has nothing yet. */
    freeDate: string;
  };
  /** In the `chat` lesson, each unread by the other participant. */
  msg: { fromPro: string; fromAma: string };
  /** Images amateur A uploaded. */
  /** Reviews by amateur A of pro P's lessons of today; `toWrite` is a lesson A took, not yet reviewed. */
  review: {
    toWrite: string;
    written: string;
    deleteByOwner: string;
    deleteByAdmin: string;
  };
  media: {
    profile: string;
    replace: string;
    deleteByOwner: string;
    deleteByAdmin: string;
  };
  /** `update` is a draft. */
  competition: { update: string; remove: string };
  news: { published: string; update: string; remove: string };
  contactId: string;
  /** Throw-away members for the account routes, with a valid reset code for `reset`. */
  accounts: {
    reset: { email: string; code: string };
    remove: { email: string; password: string };
  };
  /** A small PNG, base64. */
  png: string;
};

export type Ctx = {
  h: Harness;
  actor: Actor;
  fx: Fixture;
  /** The Authorization header this actor sends on this route, if any. */
  headers: Record<string, string>;
  remoteAddress: string;
  /** The caller's own user id; anon pretends to be amateur A. */
  self: string;
  /** An address of its own for this cell. */
  email: (purpose: string) => string;
  registrationCode: (email: string) => Promise<string>;
  /** A fresh one-time punch-out ticket. */
  ticket: () => Promise<string>;
  /** A PunchOutSetupRequest signed with `secret` (the configured one by default). */
  cxml: (secret?: string) => string;
};

export type Answer = { status: number; code?: string; body?: unknown };

export type RequestSpec = {
  /** The JSON body (POST); `{}` when omitted. */
  body?: (c: Ctx) => unknown;
  /** Sends the request itself (non-JSON routes). */
  send?: (c: Ctx) => Promise<Answer>;
  /** What an OK answer must (not) show this actor; returns a problem or undefined. */
  check?: (c: Ctx, body: unknown) => string | undefined;
};

export const NEW_PASSWORD = 'Kq7#vRm2-LpX9wZ4';

const list = (body: unknown) => body as Record<string, unknown>[];

/** A paid payment of amateur A whose refund Stripe kept refusing (status failed), for an admin to retry. */
async function failedRefund(c: Ctx): Promise<string> {
  const now = new Date();
  const paymentId = newId();
  await c.h.database.db.insert(payments).values({
    id: paymentId,
    scheduleId: c.fx.lesson.chat.id,
    userId: c.fx.ids.ama1,
    amount: 20000,
    serviceFee: 550,
    status: 'paid',
    paymentIntentId: `pi_matrix_${paymentId}`,
    holdExpiresAt: now,
    paidAt: now,
  });
  const id = newId();
  await c.h.database.db.insert(refunds).values({
    id,
    paymentId,
    amount: 20550,
    reason: 'cancelled',
    status: 'failed',
    attempts: 6,
    lastError: '権限表のテスト',
  });
  return id;
}
const sees = (c: Ctx, who: Actor[]) => who.includes(c.actor);
const visibility = (what: string, shown: boolean, should: boolean) =>
  shown === should
    ? undefined
    : `${what} ${shown ? 'shown' : 'hidden'}, expected ${should ? 'shown' : 'hidden'}`;

/**
 * Schedule reads about another member answer 200; whether amateur A's
 * reservations show is the permission. The implementation deliberately
 * answers a query about another amateur with only the lessons that member
 * runs as a pro (none), rather than their reservations (README).
 */
const amateurLessons: RequestSpec['check'] = (c, body) =>
  visibility(
    "amateur A's reserved lesson",
    list(body).some((s) => s.id === c.fx.lesson.chat.id),
    sees(c, ['amaA', 'admin']),
  );

/** AuthUser.type is BUYER for a buyer's session (implementation; the spec lists pro|amature|admin). */
const buyerSession: RequestSpec['check'] = (c, body) => {
  const type = (body as { user: { type: string } }).user.type;
  return (c.actor === 'buyer') === (type === 'BUYER')
    ? undefined
    : `user.type ${type}`;
};

/** How to ask, per route; routes without an entry are called with `{}`. */
export const REQUESTS: Record<string, RequestSpec> = {
  'POST /api/news/read': {
    body: (c) => ({ id: c.fx.news.published }),
    check: (_c, body) => (body ? undefined : 'published news answered null'),
  },
  'POST /api/competition/read': {
    body: () => ({ status: 'draft' }),
    check: (c, body) =>
      visibility('drafts', list(body).length > 0, sees(c, ['admin'])),
  },
  'POST /api/contact/create': {
    body: (c) => ({
      name: '行列 太郎',
      email: c.email('contact'),
      category: 'その他',
      message: '権限表のテストです。',
    }),
  },
  'POST /api/auth/code': { body: (c) => ({ email: c.email('code') }) },
  'POST /api/auth/code/reset': { body: (c) => ({ email: c.email('reset') }) },
  'POST /api/user/create': {
    body: async (c) => {
      const email = c.email('new');
      return {
        email,
        code: await c.registrationCode(email),
        password: NEW_PASSWORD,
        userName: '行列 花子',
        type: 'amature',
      };
    },
  },
  'POST /api/punchout/checkin': {
    body: async (c) => ({ ticket: await c.ticket() }),
  },
  'POST /api/punchout/setup': {
    send: async (c) => {
      const res = await c.h.app.inject({
        method: 'POST',
        url: '/api/punchout/setup',
        remoteAddress: c.remoteAddress,
        headers: { ...c.headers, 'content-type': 'text/xml' },
        payload: c.cxml(
          c.actor === 'badCli' ? 'not-the-shared-secret' : undefined,
        ),
      });
      return { status: res.statusCode, body: res.body };
    },
    check: (_c, body) =>
      /<StartPage>/.test(String(body)) ? undefined : 'no StartPage',
  },
  // Account routes name member A or a throw-away member, with the right password or code.
  'POST /api/auth/login': {
    body: () => ({ mail: 'ama1@example.jp', password: DEMO_PASSWORD }),
  },
  'POST /api/auth/update': {
    body: (c) => ({
      email: c.fx.accounts.reset.email,
      password: NEW_PASSWORD,
      code: c.fx.accounts.reset.code,
    }),
  },
  'POST /api/auth/delete': {
    body: (c) => ({
      email: c.fx.accounts.remove.email,
      password: c.fx.accounts.remove.password,
    }),
  },
  'POST /api/auth/handshake': { check: buyerSession },
  'POST /api/auth/refresh': { check: buyerSession },
  'POST /api/user/read': {
    body: (c) => ({ id: c.fx.ids.ama1 }),
    check: (c, body) =>
      // A buyer sees pros only: amateur A reads as unknown (null).
      c.actor === 'buyer'
        ? visibility("amateur A's profile", body !== null, false)
        : visibility(
            "amateur A's email",
            'email' in (body as object),
            sees(c, ['amaA', 'admin']),
          ),
  },
  'POST /api/user/update': {
    body: (c) => ({ id: c.fx.ids.ama1, bio: `${c.actor} が書きました` }),
  },
  'POST /api/user/getByIdList': {
    body: (c) => ({ idList: [c.fx.ids.ama1, c.fx.ids.pro1] }),
    check: (c, body) =>
      c.actor === 'buyer'
        ? visibility(
            "amateur A's profile",
            list(body).some((u) => u.id === c.fx.ids.ama1),
            false,
          )
        : visibility(
            "amateur A's email",
            'email' in list(body)[0]!,
            sees(c, ['amaA', 'admin']),
          ),
  },
  'POST /api/user/updateImageInfo': {
    // Amateur A's upload: nobody else may put it on a profile, admins included (spec: the caller's own).
    body: (c) => ({ imageInfo: [{ keyName: c.fx.media.profile }] }),
  },
  'POST /api/user/like': {
    body: (c) => ({ userType: 'amature', userId: c.fx.ids.ama1 }),
  },
  'POST /api/user/likedBy': { body: (c) => ({ userId: c.fx.ids.pro1 }) },
  'POST /api/user/likeCount': {
    body: (c) => ({ userType: 'pro', userId: c.fx.ids.pro1 }),
  },
  'POST /api/user/likeCreate': {
    // "Amateur A likes pro 2", whoever asks: only A may say so.
    body: (c) => ({ userId: c.fx.ids.ama1, likeUserId: c.fx.ids.pro2 }),
  },
  'POST /api/user/likeDelete': {
    body: (c) => ({ userId: c.fx.ids.ama1, likeUserId: c.fx.ids.pro1 }),
  },
  'POST /api/storage/upload': {
    body: (c) => ({
      fileName: 'a.png',
      contentType: 'image/png',
      data: c.fx.png,
    }),
  },
  'POST /api/storage/update': {
    body: (c) => ({ keyName: c.fx.media.replace, data: c.fx.png }),
  },
  'POST /api/storage/delete': {
    body: (c) => ({
      keyName:
        c.actor === 'admin'
          ? c.fx.media.deleteByAdmin
          : c.fx.media.deleteByOwner,
    }),
  },
  'POST /api/schedule/getById': {
    body: (c) => ({ userId: c.fx.ids.ama1 }),
    check: amateurLessons,
  },
  'POST /api/schedule/getByDate': {
    body: (c) => ({ userId: c.fx.ids.ama1, date: c.fx.lesson.chat.date }),
    check: amateurLessons,
  },
  'POST /api/schedule/getActive': {
    // Pro P's lessons are public; who reserved them only for P, the players and admins.
    body: (c) => ({ userId: c.fx.ids.pro1 }),
    check: (c, body) => {
      const lesson = list(body).find((s) => s.id === c.fx.lesson.chat.id);
      if (!lesson) return "pro P's lesson missing";
      return visibility(
        'participants',
        'participants' in lesson,
        sees(c, ['amaA', 'pro', 'admin']),
      );
    },
  },
  'POST /api/schedule/create': {
    // A lesson for pro P: P and admins may; another pro may not offer it in P's name.
    body: (c) => ({
      proId: c.fx.ids.pro1,
      date: c.fx.lesson.freeDate,
      startTime: c.actor === 'admin' ? '06:00' : '05:00',
      endTime: c.actor === 'admin' ? '06:30' : '05:30',
      place: '行列ゴルフ倶楽部',
      capacity: 2,
      fee: 10000,
    }),
  },
  'POST /api/schedule/update': {
    body: (c) => ({ id: c.fx.lesson.chat.id, note: `${c.actor} が編集` }),
  },
  'POST /api/schedule/updateRound': {
    body: (c) => ({
      proId: c.fx.ids.pro1,
      date: c.fx.lesson.roundDate,
      statusRound: 'closed',
    }),
  },
  'POST /api/schedule/reserve': { body: (c) => ({ id: c.fx.lesson.open }) },
  'POST /api/schedule/cancel': { body: (c) => ({ id: c.fx.lesson.cancel }) },
  'POST /api/schedule/callOff': {
    body: (c) => ({
      id:
        c.actor === 'admin'
          ? c.fx.lesson.callOffByAdmin
          : c.fx.lesson.callOffByPro,
      reason: '雨天のため',
    }),
  },
  'POST /api/schedule/waitlistJoin': {
    body: (c) => ({ id: c.fx.lesson.full }),
  },
  'POST /api/schedule/waitlistLeave': {
    body: (c) => ({ id: c.fx.lesson.full }),
  },
  'POST /api/user/notificationSettings': { body: () => ({}) },
  'POST /api/user/notificationSettingsUpdate': {
    body: () => ({ chatMail: true }),
  },
  'POST /api/admin/mailOutbox': { body: () => ({}) },
  'POST /api/review/create': {
    body: (c) => ({
      scheduleId: c.fx.review.toWrite,
      rating: 5,
      comment: `${c.actor} の口コミ`,
    }),
  },
  'POST /api/review/update': {
    body: (c) => ({ id: c.fx.review.written, rating: 3 }),
  },
  'POST /api/review/reply': {
    body: (c) => ({ id: c.fx.review.written, reply: `${c.actor} の返信` }),
  },
  'POST /api/review/delete': {
    body: (c) => ({
      id:
        c.actor === 'admin'
          ? c.fx.review.deleteByAdmin
          : c.fx.review.deleteByOwner,
    }),
  },
  'POST /api/review/list': { body: (c) => ({ proId: c.fx.ids.pro1 }) },
  'POST /api/admin/users': { body: () => ({ type: 'pro' }) },
  // Everyone blocks (and unblocks) amateur 5, who takes no part in the other cells.
  'POST /api/user/block': { body: (c) => ({ userId: c.fx.ids.ama5 }) },
  'POST /api/user/unblock': { body: (c) => ({ userId: c.fx.ids.ama5 }) },
  'POST /api/user/blocks': { body: () => ({}) },
  'POST /api/report/create': {
    body: (c) => ({
      targetType: 'user',
      targetId: c.fx.ids.ama5,
      reason: `${c.actor} からの通報`,
    }),
  },
  'POST /api/admin/reports': { body: () => ({ status: 'open' }) },
  'POST /api/admin/reportContexts': { body: (c) => ({ ids: [c.fx.report] }) },
  'POST /api/admin/stats': { body: () => ({ weeks: 4 }) },
  'POST /api/user/acceptTerms': { body: () => ({ version: TERMS_VERSION }) },
  'POST /api/payment/start': {
    body: (c) => ({ scheduleId: c.fx.lesson.open }),
  },
  'POST /api/payment/confirm': {
    body: (c) => ({ reservationId: c.fx.lesson.open }),
  },
  'POST /api/payment/webhook': {
    send: async (c) => {
      const res = await c.h.app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        remoteAddress: c.remoteAddress,
        headers: {
          ...c.headers,
          'content-type': 'application/json',
          'stripe-signature': 't=1,v1=00',
        },
        payload: '{"id":"evt_matrix","type":"payment_intent.succeeded"}',
      });
      return {
        status: res.statusCode,
        code: res.json<{ code?: string }>().code,
      };
    },
  },
  'POST /api/payment/list': { body: () => ({}) },
  'POST /api/payment/statement': {
    body: (c) => ({
      proId: c.fx.ids.pro1,
      month: c.fx.lesson.chat.date.slice(0, 7),
    }),
  },
  'POST /api/payment/statements': {
    body: (c) => ({ month: c.fx.lesson.chat.date.slice(0, 7) }),
  },
  'POST /api/payment/refunds': { body: () => ({}) },
  'POST /api/payment/refundRetry': {
    // Only the allowed cell makes a refund to retry: a refused call must meet the state unchanged.
    body: async (c) => ({
      id: c.actor === 'admin' ? await failedRefund(c) : 'no-such-refund',
    }),
  },
  'POST /api/admin/reportResolve': {
    body: (c) => ({ id: c.fx.report, resolution: '確認済み' }),
  },
  'POST /api/admin/verifyPro': {
    body: (c) => ({ id: c.fx.ids.pro2, verified: true }),
  },
  'POST /api/admin/suspend': {
    body: (c) => ({ id: c.fx.ids.ama2, suspended: false }),
  },
  'POST /api/schedule/delete': {
    body: (c) => ({
      id:
        c.actor === 'admin'
          ? c.fx.lesson.deleteByAdmin
          : c.fx.lesson.deleteByPro,
    }),
  },
  // Chat calls name the caller themself, so only taking part in the lesson is in question.
  'POST /api/roundLesson/message': {
    body: (c) => ({
      partitionKey: c.fx.lesson.chat.id,
      msg: `${c.actor} です`,
      sender: c.self,
    }),
  },
  'POST /api/roundLesson/getMessage': {
    body: (c) => ({ partitionKey: c.fx.lesson.chat.id }),
  },
  'POST /api/roundLesson/messageReaded': {
    // Spec: "a participant of each message's lesson"; the implementation answers 403 otherwise (README).
    body: (c) => ({
      userId: c.self,
      msgIdList: [c.fx.msg.fromPro, c.fx.msg.fromAma],
    }),
  },
  'POST /api/notification/unstepRoundLesson': {
    body: (c) => ({ userId: c.fx.ids.ama1 }),
  },
  'POST /api/roundLesson/lessons': {
    body: (c) => ({ userId: c.fx.ids.ama1 }),
  },
  'GET /api/ws': {
    // The socket carries the access token in the URL or the protocol; buyers may open one
    // (nothing reaches it: they take part in no lesson).
    send: async (c) => {
      const token = /^Bearer (.+)$/.exec(c.headers.authorization ?? '')?.[1];
      const url = `/api/ws${token ? `?access_token=${token}` : ''}`;
      let greeting: Promise<unknown> = Promise.resolve(undefined);
      let ws: Awaited<ReturnType<typeof c.h.app.injectWS>>;
      try {
        ws = await c.h.app.injectWS(url, undefined, {
          // Listening from the start: the server greets as soon as the socket opens.
          onInit: (socket) => {
            greeting = new Promise((resolve) =>
              socket.once('message', (d) => resolve(JSON.parse(String(d)))),
            );
          },
        });
      } catch {
        // The upgrade was refused: read the NG answer the same request gets over plain HTTP.
        const res = await c.h.app.inject({ method: 'GET', url });
        return {
          status: res.statusCode,
          code: res.json<{ code?: string }>().code,
        };
      }
      const body = await Promise.race([
        greeting,
        sleep(5000, undefined, { ref: false }),
      ]);
      ws.terminate();
      return { status: 200, body };
    },
    check: (c, body) =>
      (body as { type?: string } | undefined)?.type === 'hello'
        ? undefined
        : 'no hello',
  },
  'POST /api/competition/create': {
    body: () => ({
      name: '行列カップ',
      date: '2099-05-01',
      venue: '行列CC',
      status: 'draft',
    }),
  },
  'POST /api/competition/update': {
    body: (c) => ({ id: c.fx.competition.update, name: '行列カップ改' }),
  },
  'POST /api/competition/delete': {
    body: (c) => ({ id: c.fx.competition.remove }),
  },
  'POST /api/news/create': {
    body: () => ({ title: '行列のお知らせ', body: '本文です。' }),
  },
  'POST /api/news/update': {
    body: (c) => ({ id: c.fx.news.update, title: '行列のお知らせ（改）' }),
  },
  'POST /api/news/delete': { body: (c) => ({ id: c.fx.news.remove }) },
  'POST /api/contact/update': {
    body: (c) => ({ id: c.fx.contactId, handled: true }),
  },
};
