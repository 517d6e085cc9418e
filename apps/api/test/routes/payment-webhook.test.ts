/**
 * The webhook's group commit: the events of a burst are handled together in
 * one transaction, each still acting once, and one event that fails never
 * takes the others of its batch down with it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import { stripeEvents } from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import type { StripeFake } from '../../../../test-support/stripe-fake.js';
import {
  call,
  DRIVERS,
  memberTokens,
  paymentsOn,
  type Harness,
  type PaymentsOn,
} from '../helper.js';
import {
  extraAmateurs,
  mailsTo,
  paymentRow,
  reservationRow,
  scheduleRow,
} from '../fixtures.js';

type Auth = { headers: Record<string, string> };

for (const driver of DRIVERS) {
  describe(`the webhook's batches (${driver})`, () => {
    let on: PaymentsOn;
    let fake: StripeFake;
    let h: Harness;
    let pro: Auth;
    let day = 200;

    before(async () => {
      on = await paymentsOn(driver);
      ({ fake, h } = on);
      const { tok } = await memberTokens(h);
      pro = { headers: { authorization: `Bearer ${tok.pro1}` } };
    });
    after(() => on.close());

    /** `n` amateurs each holding a place of a new lesson, and the succeeded event of each hold (not delivered). */
    async function paidHolds(n: number, tag: string) {
      const lesson = await call(
        h.app,
        '/schedule/create',
        {
          date: addDays(japanDate(), day++),
          startTime: '09:00',
          endTime: '12:00',
          place: 'バッチ決済カントリー倶楽部',
          capacity: n,
          fee: 12000,
        },
        pro,
      );
      assert.equal(lesson.status, 200, JSON.stringify(lesson.json));
      const scheduleId = (lesson.json.body as { id: string }).id;
      const members = await extraAmateurs(h, n, tag);
      const url = fake.webhookUrl;
      fake.setWebhook(undefined);
      try {
        const holds = [];
        for (const m of members) {
          const r = await call(h.app, '/payment/start', { scheduleId }, m.auth);
          assert.equal(r.status, 200, JSON.stringify(r.json));
          const paymentId = (r.json.body as { reservationId: string })
            .reservationId;
          const intent = (await paymentRow(h, paymentId)).paymentIntentId!;
          const { event } = await fake.succeed(intent);
          holds.push({ member: m, paymentId, event });
        }
        return { scheduleId, holds };
      } finally {
        fake.setWebhook(url);
      }
    }

    const batchFigures = async () => {
      const { values } = await h.app.metrics.webhookBatch.get();
      const of = (name: string) =>
        values.find((v) => v.metricName === name)?.value ?? 0;
      return {
        batches: of('proam_webhook_batch_events_count'),
        events: of('proam_webhook_batch_events_sum'),
      };
    };

    it('handles a burst in fewer transactions than events, each event once, a repeat in the burst changing nothing', async () => {
      const { scheduleId, holds } = await paidHolds(4, 'batch');
      const before = await batchFigures();
      const events = holds.map((x) => x.event);
      const sent = await Promise.all(
        [...events, events[0]!].map((e) => fake.sendEvent(e)),
      );
      assert.deepEqual(
        sent.map((s) => s.status),
        [200, 200, 200, 200, 200],
      );
      const figures = await batchFigures();
      assert.equal(figures.events - before.events, 5);
      // PGlite answers in this process, between two reads of the sockets,
      // so its batches are mostly of one; PostgreSQL's round trips leave the
      // burst time to gather.
      if (driver === 'postgres')
        assert.ok(
          figures.batches - before.batches < 5,
          `5 events in ${figures.batches - before.batches} transactions`,
        );

      for (const [i, x] of holds.entries()) {
        const r = await reservationRow(h, scheduleId, x.member.id);
        assert.equal(r?.status, 'confirmed');
        assert.equal(r?.paymentStatus, 'paid');
        assert.equal((await paymentRow(h, x.paymentId)).status, 'paid');
        const to = `batch-${i}@example.jp`;
        assert.equal((await mailsTo(h, to, /お支払い/)).length, 1);
        assert.equal((await mailsTo(h, to, /予約/)).length, 1);
      }
      assert.equal((await scheduleRow(h, scheduleId)).reservedCount, 4);
      const recorded = await h.database.db
        .select()
        .from(stripeEvents)
        .where(
          inArray(
            stripeEvents.id,
            events.map((e) => e.id),
          ),
        );
      assert.equal(recorded.length, 4);
    });

    it('runs each event of a failed batch again on its own: the good one acts, the bad one fails alone and stays unrecorded', async () => {
      const { scheduleId, holds } = await paidHolds(2, 'batchbad');
      const [good, other] = holds;
      // A NUL byte is refused by the database: the batch's locking read fails.
      const bad = structuredClone(other!.event) as Stripe.Event & {
        data: { object: Stripe.PaymentIntent };
      };
      bad.id = `${bad.id}_bad`;
      bad.data.object.metadata = { paymentId: 'x\u0000y' };
      const out = await h.app.repos.payments.handleEvents(
        [good!.event, bad, good!.event],
        new Date(),
      );
      assert.deepEqual(
        out.map((o) => (o.ok ? (o.value.settled ?? 'duplicate') : 'failed')),
        ['confirmed', 'failed', 'duplicate'],
      );
      assert.equal(
        (await reservationRow(h, scheduleId, good!.member.id))?.status,
        'confirmed',
      );
      assert.equal(
        (await reservationRow(h, scheduleId, other!.member.id))?.status,
        'pending',
      );
      const recorded = await h.database.db
        .select({ id: stripeEvents.id })
        .from(stripeEvents)
        .where(inArray(stripeEvents.id, [good!.event.id, bad.id]));
      assert.deepEqual(
        recorded.map((r) => r.id),
        [good!.event.id],
      );
    });

    it('confirms holds of several lessons in one batch, each once, and a second money event for one of them changes nothing', async () => {
      // One after the other: each takes the fake's webhook delivery off and back.
      const lessons = [];
      for (const tag of ['batchmany1', 'batchmany2', 'batchmany3'])
        lessons.push(await paidHolds(1, tag));
      const holds = lessons.map((l) => ({
        scheduleId: l.scheduleId,
        ...l.holds[0]!,
      }));
      const again = structuredClone(holds[1]!.event) as Stripe.Event;
      again.id = `${again.id}_again`;
      const out = await h.app.repos.payments.handleEvents(
        [...holds.map((x) => x.event), again],
        new Date(),
      );
      assert.deepEqual(
        out.map((o) => (o.ok ? o.value.settled : 'failed')),
        ['confirmed', 'confirmed', 'confirmed', 'unchanged'],
      );
      for (const [i, x] of holds.entries()) {
        const r = await reservationRow(h, x.scheduleId, x.member.id);
        assert.equal(r?.status, 'confirmed');
        assert.equal(r?.paymentStatus, 'paid');
        assert.equal(r?.paymentId, x.paymentId);
        assert.equal(r?.holdExpiresAt, null);
        const p = await paymentRow(h, x.paymentId);
        assert.equal(p.status, 'paid');
        assert.ok(p.paidAt instanceof Date);
        assert.ok(p.paymentIntentId?.startsWith('pi_'));
        const to = `batchmany${i + 1}-0@example.jp`;
        assert.equal((await mailsTo(h, to, /お支払い/)).length, 1, to);
        assert.equal((await mailsTo(h, to, /予約/)).length, 1, to);
        assert.equal((await scheduleRow(h, x.scheduleId)).reservedCount, 1);
      }
    });

    // A payment named twice in one batch: each event acts on what the one
    // before it left. Money then a decline: the decline changes nothing.
    // A decline then money: the hold let go, then the place taken again.
    for (const order of ['money first', 'decline first'] as const)
      it(`acts on a payment named twice in one batch with what the first event left (${order})`, async () => {
        const { scheduleId, holds } = await paidHolds(
          1,
          order === 'money first' ? 'batchtwice' : 'batchdeclined',
        );
        const [x] = holds;
        const declined = structuredClone(x!.event) as Stripe.Event;
        declined.id = `${declined.id}_declined`;
        declined.type = 'payment_intent.payment_failed';
        const out = await h.app.repos.payments.handleEvents(
          order === 'money first' ? [x!.event, declined] : [declined, x!.event],
          new Date(),
        );
        assert.ok(out.every((o) => o.ok));
        assert.equal((await paymentRow(h, x!.paymentId)).status, 'paid');
        const r = await reservationRow(h, scheduleId, x!.member.id);
        assert.equal(r?.status, 'confirmed');
        assert.equal(r?.paymentStatus, 'paid');
        // One place either way, never two nor none.
        assert.equal((await scheduleRow(h, scheduleId)).reservedCount, 1);
      });
  });
}
