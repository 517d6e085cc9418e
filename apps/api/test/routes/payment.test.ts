/**
 * Online payment: holds, the PaymentIntent, Stripe's webhook and
 * /payment/confirm, against the Stripe stand-in (test-support/stripe-fake.ts).
 * The app listens on 127.0.0.1 so the fake delivers its signed events over
 * HTTP exactly as Stripe would; nothing is injected past the signature check.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { HOLDS_PER_MEMBER_MAX } from '@proam/contract';
import {
  payments,
  reservations,
  schedules,
  stripeEvents,
  users,
  waitlist,
} from '../../src/db/schema.js';
import { hashPassword } from '../../src/lib/password.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import type { StripeFake } from '../../../../test-support/stripe-fake.js';
import {
  assertRefusesSetting,
  call,
  configLoader,
  DRIVERS,
  memberSuite,
  memberTokens,
  paymentsOn,
  TestClock,
  WEB_CLIENT,
  type Harness,
  type PaymentsOn,
} from '../helper.js';
import {
  createLesson,
  extraAmateurs,
  heldReservations,
  mailsTo,
  paymentRow,
  refundRow,
  reservationRow,
  rowsWhere,
  scheduleRow,
} from '../fixtures.js';

type Auth = { headers: Record<string, string> };
type Start = {
  reservationId: string;
  clientSecret: string;
  amount: number;
  serviceFee: number;
  holdExpiresAt: string;
};
type S = {
  id: string;
  statusRound: string;
  reservedCount: number;
  myReservation?: { status: string; paymentStatus: string };
};

const PUBLISHABLE = 'pk_test_proamPaymentSuite';

/** A web build of one page, so the run-time settings the server fills in can be read back. */
function webBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'proam-pay-web-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<html><head><meta name="proam-config" content="__PROAM_CONFIG__"></head></html>',
  );
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The publishable key the page was given (null: payments off for the web app). */
async function pageKey(h: Harness): Promise<string | null> {
  const r = await h.app.inject({ method: 'GET', url: '/' });
  assert.equal(r.statusCode, 200);
  const content = /content="([^"]*)"/.exec(r.body)![1]!.replace(/&quot;/g, '"');
  return (JSON.parse(content) as { stripePublishableKey: string | null })
    .stripePublishableKey;
}

describe('payment settings', () => {
  const load = configLoader('proam-pay-config-');
  const all = {
    STRIPE_SECRET_KEY: 'sk_test_abc123',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE,
  };

  it('turns payments on only with all three keys, and names what a partial set lacks', () => {
    assert.deepEqual(load(all).stripe, {
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      publishableKey: PUBLISHABLE,
      apiBase: 'https://api.stripe.com',
    });
    assert.equal(
      load({ ...all, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripe
        ?.apiBase,
      'http://127.0.0.1:12111',
    );
    const none = load({});
    assert.equal(none.stripe, null);
    assert.deepEqual(none.stripeMissing, []);
    const partial = load({ STRIPE_SECRET_KEY: 'sk_live_abc123' });
    assert.equal(partial.stripe, null);
    assert.deepEqual(partial.stripeMissing, [
      'STRIPE_WEBHOOK_SECRET',
      'STRIPE_PUBLISHABLE_KEY',
    ]);
  });

  it('refuses a key of the wrong kind rather than starting with it', () => {
    for (const [env, name] of [
      [{ STRIPE_SECRET_KEY: 'pk_test_abc123' }, 'STRIPE_SECRET_KEY'],
      [{ STRIPE_WEBHOOK_SECRET: 'sk_test_abc123' }, 'STRIPE_WEBHOOK_SECRET'],
      [{ STRIPE_API_BASE: 'ftp://stripe.example' }, 'STRIPE_API_BASE'],
    ] as const)
      assertRefusesSetting(load, { ...all, ...env }, name);
  });
});

for (const driver of DRIVERS) {
  describe(`payments off: paid at the course (${driver})`, () => {
    const suite = memberSuite(driver);

    it('confirms a reservation at once, and has nothing to pay online', async () => {
      const { id } = await createLesson(suite, 'pro1', {
        date: 40,
        place: '現地払いカントリー倶楽部',
        fee: 12000,
      });
      const r = await suite.expect('ama1', '/schedule/reserve', { id }, 200);
      assert.deepEqual((r.json.body as S).myReservation, {
        status: 'confirmed',
        amount: 12000,
        serviceFee: 0,
        paymentStatus: 'none',
      });
      await suite.expect('ama2', '/payment/start', { scheduleId: id }, 409);
      await suite.expect(
        'ama1',
        '/payment/confirm',
        { reservationId: id },
        'Conflict',
      );
      const hook = await suite.h.app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': 'x',
        },
        payload: '{}',
      });
      assert.equal(hook.statusCode, 404);
      assert.equal(
        (await rowsWhere(suite.h, payments, payments.scheduleId, id)).length,
        0,
      );
    });
  });

  describe(`payments partly configured (${driver})`, () => {
    const suite = memberSuite(driver, {
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE,
      WEB_DIST: webBuild(),
    });

    it('starts paid at the course, warns naming what is missing, and keeps Stripe out of the page policy', async () => {
      assert.equal(suite.h.app.payments, null);
      assert.equal(suite.h.app.config.stripe, null);
      const warning = suite.h.logs.find((l) =>
        l.includes('online payment is off'),
      );
      assert.ok(warning, 'a warning at start-up');
      assert.match(warning, /STRIPE_SECRET_KEY/);
      assert.match(warning, /STRIPE_WEBHOOK_SECRET/);
      assert.doesNotMatch(warning, /pk_test|sk_test|whsec_/);
      // The web app offers online payment exactly when the server takes it.
      assert.equal(await pageKey(suite.h), null);
      const page = await suite.h.app.inject({ method: 'GET', url: '/missing' });
      assert.doesNotMatch(
        String(page.headers['content-security-policy']),
        /stripe/,
      );
      const { id } = await createLesson(suite, 'pro1', {
        date: 41,
        place: '設定途中カントリー倶楽部',
        fee: 12000,
      });
      const r = await suite.expect('ama1', '/schedule/reserve', { id }, 200);
      assert.equal((r.json.body as S).myReservation?.status, 'confirmed');
      await suite.expect('ama1', '/payment/start', { scheduleId: id }, 409);
    });
  });

  describe(`payments on (${driver})`, () => {
    const clock = new TestClock();
    let fake: StripeFake;
    let h: Harness;
    let tok: Record<string, string> = {};
    let ids: Record<string, string> = {};
    let day = 30;
    let tag = 0;
    const web = webBuild();

    let on: PaymentsOn;
    before(async () => {
      on = await paymentsOn(
        driver,
        { STRIPE_PUBLISHABLE_KEY: PUBLISHABLE, WEB_DIST: web },
        { clock },
      );
      ({ fake, h } = on);
      ({ tok, ids } = await memberTokens(h));
    });
    after(() => on.close());
    // A test that moves the clock leaves the next one at the real time.
    afterEach(() => clock.set(new Date()));

    const asMember = (who: string): Auth => ({
      headers: { authorization: `Bearer ${tok[who]}` },
    });
    const post = (auth: Auth, path: string, body: unknown) =>
      call(h.app, path, body, auth);
    /** Amateurs of this test only, so their mailboxes and reservations start empty. */
    const amateurs = (n: number) => extraAmateurs(h, n, `pay${++tag}`);
    /** A lesson of pro 1 on a date no other test uses (¥12,000, 2 places unless told). */
    async function lesson(over: Record<string, unknown> = {}) {
      const r = await post(asMember('pro1'), '/schedule/create', {
        date: addDays(japanDate(), day++),
        startTime: '09:00',
        endTime: '12:00',
        place: 'オンライン決済カントリー倶楽部',
        capacity: 2,
        fee: 12000,
        ...over,
      });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      return (r.json.body as { id: string }).id;
    }
    async function start(auth: Auth, scheduleId: string, want = 200) {
      const r = await post(auth, '/payment/start', { scheduleId });
      assert.equal(r.status, want, JSON.stringify(r.json));
      return r.json.body as Start;
    }
    const intentOf = async (paymentId: string) => {
      const p = await paymentRow(h, paymentId);
      assert.ok(p.paymentIntentId, 'the hold has its PaymentIntent');
      return p.paymentIntentId;
    };
    /** Lets Stripe's succeed happen without a delivery; returns the event it made. */
    async function succeedQuietly(intent: string): Promise<Stripe.Event> {
      const url = fake.webhookUrl;
      fake.setWebhook(undefined);
      try {
        return (await fake.succeed(intent)).event;
      } finally {
        fake.setWebhook(url);
      }
    }

    it('puts the publishable key in the page settings and refuses /schedule/reserve on a paid lesson with 402', async () => {
      const id = await lesson();
      const [a] = await amateurs(1);
      const r = await post(a!.auth, '/schedule/reserve', { id });
      assert.equal(r.status, 402);
      assert.equal(r.json.code, 'PaymentRequired');
      assert.equal((await scheduleRow(h, id)).reservedCount, 0);
      // A free lesson is reserved as before, and has nothing to pay.
      const free = await lesson({ fee: 0 });
      const ok = await post(a!.auth, '/schedule/reserve', { id: free });
      assert.equal(ok.status, 200);
      assert.equal((ok.json.body as S).myReservation?.status, 'confirmed');
      await start(a!.auth, free, 409);
      // Only amateurs hold places.
      await start(asMember('pro2'), id, 403);
      assert.equal(await pageKey(h), PUBLISHABLE);
      // The page policy lets Stripe.js in only now.
      const page = await h.app.inject({ method: 'GET', url: '/missing' });
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /script-src 'self' https:\/\/js\.stripe\.com/);
      assert.match(csp, /frame-src https:\/\/js\.stripe\.com/);
    });

    it('holds a place that counts toward capacity, with one PaymentIntent per hold however often it is asked', async () => {
      const id = await lesson({ capacity: 1 });
      const [a, b] = await amateurs(2);
      const first = await start(a!.auth, id);
      assert.equal(first.amount, 12000);
      assert.equal(first.serviceFee, 550);
      const until = new Date(first.holdExpiresAt).getTime();
      assert.ok(Math.abs(until - clock.now().getTime() - 15 * 60_000) < 5000);
      const row = await scheduleRow(h, id);
      assert.equal(row.reservedCount, 1);
      assert.equal(row.statusRound, 'full');
      const mine = await reservationRow(h, id, a!.id);
      assert.equal(mine?.status, 'pending');
      assert.equal(mine?.paymentStatus, 'requires_payment');
      // Someone else finds it full.
      const other = await post(b!.auth, '/payment/start', { scheduleId: id });
      assert.equal(other.json.code, 'ScheduleFull');

      // Again, and twice at once: the same hold, the same intent.
      const again = await Promise.all([
        start(a!.auth, id),
        start(a!.auth, id),
        start(a!.auth, id),
      ]);
      for (const x of again) {
        assert.equal(x.reservationId, first.reservationId);
        assert.equal(x.clientSecret, first.clientSecret);
      }
      const intents = [...fake.state.paymentIntents.values()].filter(
        (pi) => pi.metadata.paymentId === first.reservationId,
      );
      assert.equal(intents.length, 1);
      assert.equal(intents[0]!.amount, 12550);
      assert.equal(intents[0]!.currency, 'jpy');
      assert.equal(intents[0]!.metadata.scheduleId, id);
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
    });

    it('answers 503 while Stripe fails, keeps the hold, and gives the same hold its intent on the next call', async () => {
      const id = await lesson();
      const [a] = await amateurs(1);
      // The first try and both of the client's retries fail.
      fake.failNext(3, {
        kind: 'api_error',
        method: 'POST',
        path: '/v1/payment_intents',
      });
      const down = await post(a!.auth, '/payment/start', { scheduleId: id });
      assert.equal(down.status, 503);
      assert.equal(down.json.code, 'ServiceUnavailable');
      const held = await reservationRow(h, id, a!.id);
      assert.equal(held?.status, 'pending');
      assert.ok(held?.paymentId);
      const back = await start(a!.auth, id);
      assert.equal(back.reservationId, held.paymentId);
      assert.equal(
        await intentOf(back.reservationId),
        back.clientSecret.split('_secret_')[0],
      );
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
    });

    it('never holds more places than the lesson has, however many start at once', async () => {
      const id = await lesson({ capacity: 2 });
      const crowd = await amateurs(7);
      const answers = await Promise.all(
        crowd.map((m) => post(m.auth, '/payment/start', { scheduleId: id })),
      );
      const ok = answers.filter((r) => r.status === 200);
      assert.equal(ok.length, 2);
      for (const r of answers.filter((x) => x.status !== 200))
        assert.equal(r.json.code, 'ScheduleFull');
      assert.equal((await scheduleRow(h, id)).reservedCount, 2);
      assert.equal((await heldReservations(h, id)).length, 2);
      const intents = [...fake.state.paymentIntents.values()].filter(
        (pi) => pi.metadata.scheduleId === id,
      );
      assert.equal(intents.length, 2);
      // The intents' ids are recorded together (one statement for the
      // starts answering at once), each on its own hold.
      for (const r of ok) {
        const { reservationId, clientSecret } = r.json.body as Start;
        assert.equal(
          (await paymentRow(h, reservationId)).paymentIntentId,
          clientSecret.split('_secret_')[0],
        );
      }
    });

    it('refuses a webhook without a valid, fresh signature and changes nothing; a valid one confirms once', async () => {
      const id = await lesson();
      const [a] = await amateurs(1);
      const hold = await start(a!.auth, id);
      const intent = await intentOf(hold.reservationId);
      const event = await succeedQuietly(intent);
      const before = await h.database.db.select().from(stripeEvents);

      const wrong = await fake.sendEvent(event, { secret: 'whsec_notours' });
      assert.equal(wrong.status, 400);
      const old = await fake.sendEvent(event, {
        timestamp: Math.floor(Date.now() / 1000) - 301,
      });
      assert.equal(old.status, 400);
      const tampered = await fake.sendEvent(event, {
        signature: wrong.signature.replace(/v1=./, 'v1=0'),
      });
      assert.equal(tampered.status, 400);
      const missing = await fetch(fake.webhookUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
      });
      assert.equal(missing.status, 400);
      assert.equal(
        ((await missing.json()) as { code: string }).code,
        'ValidationError',
      );
      assert.equal((await paymentRow(h, hold.reservationId)).status, 'pending');
      assert.equal((await reservationRow(h, id, a!.id))?.status, 'pending');
      assert.deepEqual(await h.database.db.select().from(stripeEvents), before);

      const good = await fake.sendEvent(event);
      assert.equal(good.status, 200, good.responseBody);
      assert.deepEqual(JSON.parse(good.responseBody).body, { received: true });
      const paid = await reservationRow(h, id, a!.id);
      assert.equal(paid?.status, 'confirmed');
      assert.equal(paid?.paymentStatus, 'paid');
      assert.equal(paid?.holdExpiresAt, null);
      const p = await paymentRow(h, hold.reservationId);
      assert.equal(p.status, 'paid');
      assert.ok(p.paidAt);
      const email = `pay${tag}-0@example.jp`;
      assert.equal((await mailsTo(h, email, /お支払い/)).length, 1);
      assert.equal((await mailsTo(h, email, /予約/)).length, 1);
      assert.equal(
        (await mailsTo(h, 'pro1@example.jp', /予約/)).length >= 1,
        true,
      );

      // The same delivery replayed byte for byte, and redelivered with a fresh signature: nothing more.
      const replay = await fake.sendEvent(event, { replay: true });
      assert.equal(replay.status, 200);
      const redelivered = await fake.sendEvent(event);
      assert.equal(redelivered.status, 200);
      assert.equal((await mailsTo(h, email, /お支払い/)).length, 1);
      assert.equal((await mailsTo(h, email, /予約/)).length, 1);
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
      const seen = await rowsWhere(h, stripeEvents, stripeEvents.id, event.id);
      assert.equal(seen.length, 1);

      // The lesson shows it paid, and reserving again changes nothing.
      const again = await post(a!.auth, '/schedule/reserve', { id });
      assert.equal(again.status, 200);
      assert.equal((again.json.body as S).myReservation?.paymentStatus, 'paid');
      await start(a!.auth, id, 409);
    });

    it('a declined payment releases the place and gives the first in line a hold', async () => {
      const id = await lesson({ capacity: 1 });
      const [a, b] = await amateurs(2);
      const hold = await start(a!.auth, id);
      const intent = await intentOf(hold.reservationId);
      const joined = await post(b!.auth, '/schedule/waitlistJoin', { id });
      assert.deepEqual(joined.json.body, { position: 1 });

      const declined = await fake.fail(intent);
      assert.equal(declined.delivery?.status, 200);
      const p = await paymentRow(h, hold.reservationId);
      assert.equal(p.status, 'failed');
      assert.equal(p.failure, 'declined');
      assert.equal((await reservationRow(h, id, a!.id))?.status, 'cancelled');

      // B now holds the place, with a hold of their own (no intent until they start).
      const promoted = await reservationRow(h, id, b!.id);
      assert.equal(promoted?.status, 'pending');
      assert.equal(promoted?.paymentStatus, 'requires_payment');
      assert.ok(promoted?.paymentId);
      const theirs = await paymentRow(h, promoted.paymentId);
      assert.equal(theirs.status, 'pending');
      assert.equal(theirs.paymentIntentId, null);
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
      const promotedMail = await mailsTo(
        h,
        `pay${tag}-1@example.jp`,
        /キャンセル待ち/,
      );
      assert.equal(promotedMail.length, 1);
      // It says to pay within the hold, and where.
      assert.match(promotedMail[0]!.body, /お支払い期限/);
      assert.ok(promotedMail[0]!.body.includes(`/#/payment/${id}`));
      // The pro hears who was offered the place, and until when (API.md: the pro is mailed too).
      const toPro = (
        await mailsTo(h, 'pro1@example.jp', /キャンセル待ち/)
      ).filter((m) => m.body.includes(`pay${tag} 1 様`));
      assert.equal(toPro.length, 1);
      assert.match(toPro[0]!.subject, /ご案内/);
      assert.match(
        toPro[0]!.body,
        /\d{2}:\d{2}までにお支払いが済むと予約が確定/,
      );
      // Their /payment/start takes up that hold.
      const started = await start(b!.auth, id);
      assert.equal(started.reservationId, promoted.paymentId);
      assert.equal(started.holdExpiresAt, theirs.holdExpiresAt.toISOString());
      // The declined intent was cancelled at Stripe.
      await h.app.payments?.settled();
      assert.equal(fake.state.paymentIntents.get(intent)?.status, 'canceled');
    });

    it('keeps the fee of a lesson someone holds or paid: the card was charged it', async () => {
      const id = await lesson();
      const [a] = await amateurs(1);
      const change = (fee: number, want: number | string) =>
        post(asMember('pro1'), '/schedule/update', { id, fee }).then((r) => {
          assert.equal(
            typeof want === 'number' ? r.status : r.json.code,
            want,
            JSON.stringify(r.json),
          );
          return r;
        });
      // Nobody holds a place yet: the pro may change it.
      await change(13000, 200);
      const hold = await start(a!.auth, id);
      await change(14000, 'Conflict');
      // The same fee, or another field, is still an edit like any other.
      await change(13000, 200);
      assert.equal((await scheduleRow(h, id)).fee, 13000);
      // The hold let go: nothing is held or paid at this fee any more.
      await post(a!.auth, '/schedule/cancel', { id });
      assert.equal((await paymentRow(h, hold.reservationId)).status, 'failed');
      await change(14000, 200);
    });

    it('lets one amateur hold places unpaid in three lessons at once, not more', async () => {
      const ids = [
        await lesson(),
        await lesson(),
        await lesson(),
        await lesson(),
      ];
      const [a] = await amateurs(1);
      const holds = [];
      for (const id of ids.slice(0, HOLDS_PER_MEMBER_MAX))
        holds.push(await start(a!.auth, id));
      // A fourth is refused and takes no place …
      await start(a!.auth, ids[3]!, 409);
      assert.equal((await scheduleRow(h, ids[3]!)).reservedCount, 0);
      // … while a hold of theirs is still answered again.
      const again = await start(a!.auth, ids[0]!);
      assert.equal(again.reservationId, holds[0]!.reservationId);
      // One given up makes room for another.
      await post(a!.auth, '/schedule/cancel', { id: ids[0] });
      assert.equal((await start(a!.auth, ids[3]!)).amount, 12000);
      // Once their holds have ended, they may hold again.
      clock.advance(15 * 60_000 + 1000);
      await start(a!.auth, ids[0]!);
    });

    it('lets an unpaid hold go once it has ended (the scheduled job)', async () => {
      const id = await lesson({ capacity: 1 });
      const [a] = await amateurs(1);
      const hold = await start(a!.auth, id);
      assert.equal((await h.app.jobs.runOnce()).expiredHolds, 0);
      clock.advance(15 * 60_000 + 1000);
      // Holds of earlier tests end too: at least this one.
      assert.ok((await h.app.jobs.runOnce()).expiredHolds >= 1);
      const p = await paymentRow(h, hold.reservationId);
      assert.equal(p.status, 'failed');
      assert.equal(p.failure, 'expired');
      const r = await reservationRow(h, id, a!.id);
      assert.equal(r?.status, 'cancelled');
      assert.equal(r?.paymentStatus, 'none');
      const row = await scheduleRow(h, id);
      assert.equal(row.reservedCount, 0);
      assert.equal(row.statusRound, 'open');
      assert.equal((await h.app.jobs.runOnce()).expiredHolds, 0);
      // A new start is a new hold (a new payment).
      const next = await start(a!.auth, id);
      assert.notEqual(next.reservationId, hold.reservationId);
    });

    it("restarting one's own ended hold lets it go first: the first in line gets the place, the restart finds it full", async () => {
      const id = await lesson({ capacity: 1 });
      const [a, b] = await amateurs(2);
      const first = await start(a!.auth, id);
      const intent = await intentOf(first.reservationId);
      await post(b!.auth, '/schedule/waitlistJoin', { id });
      clock.advance(15 * 60_000 + 1000);
      const again = await post(a!.auth, '/payment/start', { scheduleId: id });
      assert.equal(again.json.code, 'ScheduleFull');
      const p = await paymentRow(h, first.reservationId);
      assert.equal(p.status, 'failed');
      assert.equal(p.failure, 'expired');
      assert.equal((await reservationRow(h, id, b!.id))?.status, 'pending');
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
      await h.app.payments?.settled();
      assert.equal(fake.state.paymentIntents.get(intent)?.status, 'canceled');
    });

    it('two starts at once by one member get the same hold', async () => {
      const id = await lesson({ capacity: 3 });
      const [a] = await amateurs(1);
      const both = await Promise.all([start(a!.auth, id), start(a!.auth, id)]);
      assert.equal(both[0].reservationId, both[1].reservationId);
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
    });

    it('the job letting holds go while their members start again never counts a place twice', async () => {
      const id = await lesson({ capacity: 2 });
      const members = await amateurs(3);
      for (const m of members.slice(0, 2)) await start(m.auth, id);
      await post(members[2]!.auth, '/schedule/waitlistJoin', { id });
      clock.advance(15 * 60_000 + 1000);
      const answers = await Promise.all([
        h.app.jobs.runOnce(),
        ...members.map((m) =>
          post(m.auth, '/payment/start', { scheduleId: id }),
        ),
      ]);
      for (const a of answers.slice(1))
        assert.ok(
          'json' in a &&
            (a.json.status === 'OK' || a.json.code === 'ScheduleFull'),
          `a start answered ${JSON.stringify('json' in a ? [a.status, a.json] : a)}`,
        );
      const active = await rowsWhere(
        h,
        reservations,
        reservations.scheduleId,
        id,
      );
      const holding = active.filter(
        (r) => r.status === 'pending' || r.status === 'confirmed',
      );
      const row = await scheduleRow(h, id);
      // What each start answered and every reservation, should it ever fail.
      const facts = JSON.stringify({
        answers: answers.slice(1).map((a) => 'json' in a && a.json),
        reservations: active.map((r) => [r.userId, r.status, r.paymentId]),
      });
      assert.equal(row.reservedCount, holding.length, facts);
      assert.ok(row.reservedCount <= 2, facts);
    });

    it('a full lesson whose hold has ended gives the place at the next start, first to the one in line (before the job runs)', async () => {
      const id = await lesson({ capacity: 1 });
      const [a, b, c] = await amateurs(3);
      const first = await start(a!.auth, id);
      const joined = await post(b!.auth, '/schedule/waitlistJoin', { id });
      assert.deepEqual(joined.json.body, { position: 1 });
      clock.advance(15 * 60_000 + 1000);
      // C is not in line: the ended hold goes to B, so C still finds it full.
      const late = await post(c!.auth, '/payment/start', { scheduleId: id });
      assert.equal(late.json.code, 'ScheduleFull');
      assert.equal(
        (await paymentRow(h, first.reservationId)).failure,
        'expired',
      );
      assert.equal((await reservationRow(h, id, a!.id))?.status, 'cancelled');
      // Committed with C's refusal, and carried out: A's intent is cancelled at Stripe.
      await h.app.payments?.settled();
      assert.equal(
        fake.state.paymentIntents.get(await intentOf(first.reservationId))
          ?.status,
        'canceled',
      );
      // B was promoted to a hold by that sweep; their start takes it up.
      const promoted = await reservationRow(h, id, b!.id);
      assert.equal(promoted?.status, 'pending');
      const theirs = await start(b!.auth, id);
      assert.equal(theirs.reservationId, promoted?.paymentId);
      const row = await scheduleRow(h, id);
      assert.equal(row.reservedCount, 1);
      assert.equal(row.statusRound, 'full');
      const line = await rowsWhere(h, waitlist, waitlist.scheduleId, id);
      assert.equal(line.length, 0);

      // B's hold ends too, nobody is in line: C's start takes the place at once.
      clock.advance(15 * 60_000 + 1000);
      const next = await start(c!.auth, id);
      assert.equal(
        (await paymentRow(h, theirs.reservationId)).failure,
        'expired',
      );
      assert.equal(
        (await reservationRow(h, id, c!.id))?.paymentId,
        next.reservationId,
      );
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
    });

    it('a promoted hold left unpaid passes to the next in line', async () => {
      const id = await lesson({ capacity: 1 });
      const [a, b, c] = await amateurs(3);
      await start(a!.auth, id);
      for (const m of [b, c])
        assert.equal(
          (await post(m!.auth, '/schedule/waitlistJoin', { id })).status,
          200,
        );
      clock.advance(15 * 60_000 + 1000);
      await h.app.jobs.runOnce();
      const held = await reservationRow(h, id, b!.id);
      assert.equal(held?.status, 'pending');
      const view = await post(b!.auth, '/schedule/getById', {
        userId: b!.id,
      });
      const card = (view.json.body as S[]).find((x) => x.id === id);
      assert.equal(card?.myReservation?.status, 'pending');
      assert.equal(card?.myReservation?.paymentStatus, 'requires_payment');
      // B does not pay in time either: C's turn.
      clock.advance(15 * 60_000 + 1000);
      await h.app.jobs.runOnce();
      assert.equal((await reservationRow(h, id, b!.id))?.status, 'cancelled');
      assert.equal((await reservationRow(h, id, c!.id))?.status, 'pending');
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
    });

    it('/payment/confirm and the webhook converge, whichever comes first', async () => {
      const id = await lesson({ capacity: 3 });
      const [a, b] = await amateurs(2);
      const confirm = (auth: Auth, reservationId: string) =>
        post(auth, '/payment/confirm', { reservationId });

      // Not paid yet: answered as it is, pending.
      const holdA = await start(a!.auth, id);
      const early = await confirm(a!.auth, holdA.reservationId);
      assert.equal(early.status, 200);
      assert.equal((early.json.body as { status: string }).status, 'pending');
      // Someone else's payment is unknown to them.
      assert.equal(
        (await confirm(b!.auth, holdA.reservationId)).json.code,
        'NotFound',
      );

      // Webhook first, then the client's confirm.
      await fake.succeed(await intentOf(holdA.reservationId));
      const afterHook = await confirm(a!.auth, holdA.reservationId);
      const paidA = afterHook.json.body as {
        status: string;
        receiptNo?: string;
      };
      assert.equal(paidA.status, 'paid');
      assert.match(paidA.receiptNo ?? '', /^R\d{8}-[0-9A-Z]{8}$/);

      // Confirm first (the webhook is late), then the webhook.
      const holdB = await start(b!.auth, id);
      const event = await succeedQuietly(await intentOf(holdB.reservationId));
      const byConfirm = await confirm(b!.auth, holdB.reservationId);
      assert.equal((byConfirm.json.body as { status: string }).status, 'paid');
      assert.equal((await reservationRow(h, id, b!.id))?.status, 'confirmed');
      const late = await fake.sendEvent(event);
      assert.equal(late.status, 200);

      for (const [i, m] of [a, b].entries()) {
        const r = await reservationRow(h, id, m!.id);
        assert.equal(r?.status, 'confirmed');
        assert.equal(r?.paymentStatus, 'paid');
        const email = `pay${tag}-${i}@example.jp`;
        assert.equal((await mailsTo(h, email, /お支払い/)).length, 1, email);
        assert.equal((await mailsTo(h, email, /予約/)).length, 1, email);
      }
      assert.equal((await scheduleRow(h, id)).reservedCount, 2);
    });

    it('money that arrives after the hold ended, with no place left, is refunded (late)', async () => {
      const id = await lesson({ capacity: 1 });
      const [a, b] = await amateurs(2);
      const hold = await start(a!.auth, id);
      const intent = await intentOf(hold.reservationId);
      clock.advance(16 * 60_000);
      // The hold ends; Stripe refuses to cancel the intent (the customer is paying at that moment).
      fake.failNext(1, {
        kind: 'invalid_request',
        method: 'POST',
        path: /\/cancel$/,
      });
      assert.ok((await h.app.jobs.runOnce()).expiredHolds >= 1);
      assert.equal((await paymentRow(h, hold.reservationId)).status, 'failed');
      await h.app.payments?.settled();
      // The place goes to someone else, who pays for it.
      const holdB = await start(b!.auth, id);
      await fake.succeed(await intentOf(holdB.reservationId));
      assert.equal((await reservationRow(h, id, b!.id))?.status, 'confirmed');

      // Then A's money arrives: paid, but no place, so it is refunded in full.
      const settled = await fake.succeed(intent);
      assert.equal(settled.delivery?.status, 200);
      assert.equal((await reservationRow(h, id, a!.id))?.status, 'cancelled');
      const refund = await refundRow(h, hold.reservationId);
      assert.ok(refund, 'a refund is owed');
      assert.equal(refund.reason, 'late');
      assert.equal(refund.amount, 12550);
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
      // The refund worker sends it (kicked at once; job rounds make sure).
      let sent: string | undefined;
      for (let i = 0; i < 50 && sent !== 'succeeded'; i++) {
        await h.app.jobs.runOnce();
        sent = (await refundRow(h, hold.reservationId))?.status;
        if (sent !== 'succeeded') await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(sent, 'succeeded');
      assert.ok(
        [...fake.state.refunds.values()].some(
          (x) => x.payment_intent === intent && x.amount === 12550,
        ),
      );
    });

    it('cancelling a paid reservation in time queues its refund; a pending hold is simply let go', async () => {
      const id = await lesson({ capacity: 2 });
      const [a, b] = await amateurs(2);
      const hold = await start(a!.auth, id);
      await fake.succeed(await intentOf(hold.reservationId));
      const cancelled = await post(a!.auth, '/schedule/cancel', { id });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.json));
      const refund = await refundRow(h, hold.reservationId);
      assert.equal(refund?.reason, 'cancelled');

      const holdB = await start(b!.auth, id);
      const gone = await post(b!.auth, '/schedule/cancel', { id });
      assert.equal(gone.status, 200);
      const p = await paymentRow(h, holdB.reservationId);
      assert.equal(p.status, 'failed');
      assert.equal(p.failure, 'cancelled');
      assert.equal(await refundRow(h, holdB.reservationId), undefined);
      assert.equal((await scheduleRow(h, id)).reservedCount, 0);
    });

    it('holds again after a let-go hold (the same reservation row, a new payment) and takes the member out of the line', async () => {
      const id = await lesson({ capacity: 2 });
      const [a] = await amateurs(1);
      const first = await start(a!.auth, id);
      assert.equal(
        (await post(a!.auth, '/schedule/cancel', { id })).status,
        200,
      );
      assert.equal((await reservationRow(h, id, a!.id))?.status, 'cancelled');
      // A line entry left over from when the lesson was full.
      await h.database.db
        .insert(waitlist)
        .values({ scheduleId: id, userId: a!.id, createdAt: clock.now() });
      const second = await start(a!.auth, id);
      assert.notEqual(second.reservationId, first.reservationId);
      const mine = await reservationRow(h, id, a!.id);
      assert.equal(mine?.status, 'pending');
      assert.equal(mine?.paymentStatus, 'requires_payment');
      assert.equal(mine?.paymentId, second.reservationId);
      assert.equal(mine?.cancelledAt, null);
      assert.equal(
        mine?.holdExpiresAt?.toISOString(),
        new Date(second.holdExpiresAt).toISOString(),
      );
      const p = await paymentRow(h, second.reservationId);
      assert.equal(p.status, 'pending');
      assert.equal(p.amount + p.serviceFee, 12550);
      assert.equal((await paymentRow(h, first.reservationId)).status, 'failed');
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
      assert.deepEqual(
        await rowsWhere(h, waitlist, waitlist.scheduleId, id),
        [],
      );
    });

    it('calling a lesson off refunds every paid reservation and lets holds go', async () => {
      const id = await lesson({ capacity: 3 });
      const [a, b] = await amateurs(2);
      const paid = await start(a!.auth, id);
      await fake.succeed(await intentOf(paid.reservationId));
      const pending = await start(b!.auth, id);
      const off = await post(asMember('pro1'), '/schedule/callOff', {
        id,
        reason: '雷雨のため',
      });
      assert.equal(off.status, 200, JSON.stringify(off.json));
      const refund = await refundRow(h, paid.reservationId);
      assert.equal(refund?.reason, 'calledOff');
      const p = await paymentRow(h, pending.reservationId);
      assert.equal(p.status, 'failed');
      assert.equal(p.failure, 'calledOff');
      assert.equal((await reservationRow(h, id, b!.id))?.status, 'cancelled');
      // The paid participant keeps their (called-off) reservation and the chat.
      assert.equal((await reservationRow(h, id, a!.id))?.status, 'confirmed');
    });

    /** A's hold on the lesson, paid (the webhook delivered); answers the payment id. */
    async function paidBy(auth: Auth, scheduleId: string) {
      const hold = await start(auth, scheduleId);
      await fake.succeed(await intentOf(hold.reservationId));
      assert.equal((await paymentRow(h, hold.reservationId)).status, 'paid');
      return hold.reservationId;
    }

    it('never deletes a lesson that took money online: its payments and refunds owed stay (409)', async () => {
      const id = await lesson();
      const [a] = await amateurs(1);
      const paid = await paidBy(a!.auth, id);
      const cancelled = await post(a!.auth, '/schedule/cancel', { id });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.json));
      assert.equal((await scheduleRow(h, id)).reservedCount, 0);
      const del = await post(asMember('pro1'), '/schedule/delete', { id });
      assert.equal(del.status, 409, JSON.stringify(del.json));
      assert.equal(del.json.code, 'Conflict');
      assert.equal((await scheduleRow(h, id)).id, id);
      // The payment stays, paid or already refunded: the refund worker may
      // have reached Stripe by now (a CI run on PostgreSQL saw 'refunded').
      assert.ok(
        ['paid', 'refunded'].includes((await paymentRow(h, paid)).status),
      );
      assert.equal((await refundRow(h, paid))?.reason, 'cancelled');
      // A lesson nobody paid for is still deleted.
      const plain = await lesson();
      const gone = await post(asMember('pro1'), '/schedule/delete', {
        id: plain,
      });
      assert.deepEqual(gone.json.body, { deletedCount: 1 });
    });

    it('setting a lesson cancelled by /schedule/update is a call-off: refunds, holds let go, mails; it stays cancelled', async () => {
      const id = await lesson({ capacity: 3 });
      const [a, b] = await amateurs(2);
      const paid = await paidBy(a!.auth, id);
      const pending = await start(b!.auth, id);
      const off = await post(asMember('pro1'), '/schedule/update', {
        id,
        statusRound: 'cancelled',
      });
      assert.equal(off.status, 200, JSON.stringify(off.json));
      assert.equal((await refundRow(h, paid))?.reason, 'calledOff');
      const p = await paymentRow(h, pending.reservationId);
      assert.equal(p.status, 'failed');
      assert.equal(p.failure, 'calledOff');
      assert.equal((await reservationRow(h, id, b!.id))?.status, 'cancelled');
      assert.equal((await scheduleRow(h, id)).reservedCount, 1);
      assert.equal(
        (await mailsTo(h, `pay${tag}-0@example.jp`, /中止/)).length,
        1,
      );
      // Reopening would give the refunded member's place back: refused.
      const reopen = await post(asMember('pro1'), '/schedule/update', {
        id,
        statusRound: 'open',
      });
      assert.equal(reopen.status, 409, JSON.stringify(reopen.json));
      assert.equal((await scheduleRow(h, id)).statusRound, 'cancelled');
    });

    it('setting a day cancelled by /schedule/updateRound refunds too, and never reopens a called-off lesson', async () => {
      const id = await lesson({ capacity: 3 });
      const { date } = await scheduleRow(h, id);
      const [a] = await amateurs(1);
      const paid = await paidBy(a!.auth, id);
      const off = await post(asMember('pro1'), '/schedule/updateRound', {
        proId: ids.pro1,
        date,
        statusRound: 'cancelled',
      });
      assert.deepEqual(off.json.body, { updatedCount: 1 });
      assert.equal((await refundRow(h, paid))?.reason, 'calledOff');
      assert.equal(
        (await mailsTo(h, `pay${tag}-0@example.jp`, /中止/)).length,
        1,
      );
      const reopen = await post(asMember('pro1'), '/schedule/updateRound', {
        proId: ids.pro1,
        date,
        statusRound: 'open',
      });
      assert.deepEqual(reopen.json.body, { updatedCount: 0 });
      assert.equal((await scheduleRow(h, id)).statusRound, 'cancelled');
    });

    it('gives a hold its PaymentIntent again after the lesson was edited (no idempotency clash)', async () => {
      const id = await lesson();
      const [a] = await amateurs(1);
      const first = await start(a!.auth, id);
      const moved = await post(asMember('pro1'), '/schedule/update', {
        id,
        place: '変更後のオンライン決済コース',
      });
      assert.equal(moved.status, 200, JSON.stringify(moved.json));
      const again = await start(a!.auth, id);
      assert.equal(again.reservationId, first.reservationId);
      assert.equal(again.clientSecret, first.clientSecret);
    });

    it('money for a let-go hold of a member deleted meanwhile is refunded, not a webhook failing for ever', async () => {
      const id = await lesson();
      const [a] = await amateurs(1);
      const hold = await start(a!.auth, id);
      const intent = await intentOf(hold.reservationId);
      // Stripe refuses to cancel the intent (the customer is paying at that moment).
      fake.failNext(1, {
        kind: 'invalid_request',
        method: 'POST',
        path: /\/cancel$/,
      });
      const released = await post(a!.auth, '/schedule/cancel', { id });
      assert.equal(released.status, 200);
      await h.app.payments?.settled();
      await h.database.db.delete(users).where(eq(users.id, a!.id));
      const settled = await fake.succeed(intent);
      assert.equal(settled.delivery?.status, 200);
      assert.equal((await refundRow(h, hold.reservationId))?.reason, 'late');
      assert.equal((await scheduleRow(h, id)).reservedCount, 0);
    });

    it('money for a let-go hold after the lesson began is refunded, never a place in it', async () => {
      const id = await lesson({ capacity: 2 });
      const { date } = await scheduleRow(h, id);
      const [a] = await amateurs(1);
      const hold = await start(a!.auth, id);
      const intent = await intentOf(hold.reservationId);
      // 10:00 in Japan on the lesson's day: it began at 09:00.
      clock.set(new Date(`${date}T10:00:00+09:00`));
      // Stripe refuses to cancel the intent (the customer is paying at that moment).
      fake.failNext(1, {
        kind: 'invalid_request',
        method: 'POST',
        path: new RegExp(`${intent}/cancel$`),
      });
      await h.app.jobs.runOnce();
      assert.equal(
        (await paymentRow(h, hold.reservationId)).failure,
        'expired',
      );
      await h.app.payments?.settled();
      const settled = await fake.succeed(intent);
      assert.equal(settled.delivery?.status, 200);
      assert.equal((await reservationRow(h, id, a!.id))?.status, 'cancelled');
      assert.equal((await refundRow(h, hold.reservationId))?.reason, 'late');
      assert.equal((await scheduleRow(h, id)).reservedCount, 0);
    });

    it('logs a paid PaymentIntent that is none of our holds, and changes nothing', async () => {
      const stray = await h.app.payments!.stripe.paymentIntents.create({
        amount: 12550,
        currency: 'jpy',
        metadata: { paymentId: 'no-such-payment' },
      });
      const settled = await fake.succeed(stray.id);
      assert.equal(settled.delivery?.status, 200);
      assert.ok(
        h.logs.some(
          (l) =>
            l.includes('does not match a payment') &&
            l.includes(settled.event.id),
        ),
        'a warning names the event',
      );
    });

    it("deleting an amateur's account lets their holds go and refunds their paid places", async () => {
      const paidLesson = await lesson();
      const heldLesson = await lesson({ capacity: 1 });
      const [a, w] = await amateurs(2);
      const paid = await paidBy(a!.auth, paidLesson);
      const hold = await start(a!.auth, heldLesson);
      const joined = await post(w!.auth, '/schedule/waitlistJoin', {
        id: heldLesson,
      });
      assert.equal(joined.status, 200, JSON.stringify(joined.json));
      const email = `pay${tag}-0@example.jp`;
      await h.database.db
        .update(users)
        .set({ passwordHash: await hashPassword('proam-demo-2026') })
        .where(eq(users.id, a!.id));
      const r = await post(
        { headers: { authorization: WEB_CLIENT } },
        '/auth/delete',
        {
          email,
          password: 'proam-demo-2026',
        },
      );
      assert.deepEqual(r.json.body, { deleted: true });
      // The payment records stay; the paid place is refunded in full.
      assert.equal((await paymentRow(h, paid)).userId, a!.id);
      const refund = await refundRow(h, paid);
      assert.equal(refund?.reason, 'cancelled');
      assert.equal(refund?.amount, 12550);
      assert.equal((await scheduleRow(h, paidLesson)).reservedCount, 0);
      // The hold is let go and its place goes to the first in line (a hold of theirs).
      assert.equal((await paymentRow(h, hold.reservationId)).status, 'failed');
      assert.equal(
        (await reservationRow(h, heldLesson, w!.id))?.status,
        'pending',
      );
      assert.equal((await scheduleRow(h, heldLesson)).reservedCount, 1);
    });

    it("refuses to delete a pro's account while their lessons hold online payments (409, nothing changed)", async () => {
      const r = await post(
        { headers: { authorization: WEB_CLIENT } },
        '/auth/delete',
        {
          email: 'pro1@example.jp',
          password: 'proam-demo-2026',
        },
      );
      assert.equal(r.status, 409, JSON.stringify(r.json));
      assert.equal((await rowsWhere(h, users, users.id, ids.pro1!)).length, 1);
      assert.ok(
        (await rowsWhere(h, schedules, schedules.proId, ids.pro1!)).length > 0,
      );
    });
  });
}
