/**
 * Money out of online payment (API.md, Payments): 支払い履歴 and its receipt
 * numbers, the pros' monthly statements and their arithmetic, who may read
 * them, and refunds — queued in the transaction that owes them and sent to
 * the Stripe fake by the refund worker, retried with backoff, failed for an
 * admin after the last attempt, and sent once however many workers run.
 *
 * Paid reservations are made as the rest of the suite makes reservations
 * (/schedule/reserve, with payments OFF), then given a payment row whose
 * PaymentIntent the fake created and settled: what a paid hold leaves behind.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { SERVICE_FEE, type Payment, type Refund } from '@proam/contract';
import type { mailOutbox } from '../../src/db/schema.js';
import {
  payments,
  refunds,
  reservations,
  schedules,
  users,
} from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import {
  createRefundWorker,
  type RefundWorker,
} from '../../src/payments/refund-worker.js';
import { japanDate } from '../../src/lib/time.js';
import {
  paymentRecordRepository,
  receiptNoOf,
} from '../../src/repositories/payment-record-repository.js';
import { reservationOf } from '../../src/repositories/queries.js';
import {
  queueRefund,
  refundRepository,
  type RefundReason,
} from '../../src/repositories/refund-repository.js';
import {
  startStripeFake,
  type StripeFake,
} from '../../../../test-support/stripe-fake.js';
import {
  DRIVERS,
  memberSuite,
  TestClock,
  type MemberSuite,
} from '../helper.js';
import {
  columns,
  createLesson,
  extraAmateurs,
  memberMails,
  paymentRow,
  refundRow,
  rowsWhere,
} from '../fixtures.js';

const MINUTE = 60_000;

type Statement = {
  month: string;
  proId: string;
  proName: string;
  lessons: {
    scheduleId: string;
    date: string;
    startTime: string;
    place: string;
    fee: number;
    participants: number;
  }[];
  grossFee: number;
  commission: number;
  payout: number;
};
type Statements = {
  month: string;
  pros: {
    proId: string;
    lessons: number;
    participants: number;
    grossFee: number;
    commission: number;
    payout: number;
  }[];
};

type Who = { id: string; auth: { headers: Record<string, string> } };

/** The library pointed at the fake, as the server points it (STRIPE_API_BASE). */
function stripeFor(fake: StripeFake): Stripe {
  return new Stripe(fake.secretKey, {
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
}

/**
 * Money-side helpers over one suite: lessons moved to a chosen date after
 * booking, and reservations paid through a PaymentIntent the fake settled.
 */
function money(suite: MemberSuite, fakeOf: () => StripeFake) {
  let stripe: Stripe | undefined;
  const client = () => (stripe ??= stripeFor(fakeOf()));

  // Lessons land on days of their own (a pro's lessons may not overlap), past the seeded ones.
  let day = 100;

  /** A lesson of `pro` (created ahead, as a past date is refused), later moved to `date`. */
  async function lesson(
    pro: string,
    over: { fee: number; startTime?: string; capacity?: number },
  ) {
    const { id } = await createLesson(suite, pro, {
      date: day++,
      place: '精算テストゴルフ倶楽部',
      startTime: over.startTime ?? '09:00',
      endTime: '17:00',
      capacity: over.capacity ?? 4,
      fee: over.fee,
    });
    return id;
  }

  async function moveTo(scheduleId: string, date: string) {
    await suite.h.database.db
      .update(schedules)
      .set({ date })
      .where(eq(schedules.id, scheduleId));
  }

  /** `who` reserves the lesson (to pay at the course: payments are OFF here). */
  async function reserve(scheduleId: string, who: Who) {
    const r = await suite.h.app.inject({
      method: 'POST',
      url: '/api/schedule/reserve',
      headers: { ...who.auth.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: scheduleId }),
    });
    assert.equal(r.statusCode, 200, r.body);
  }

  /**
   * `who` reserves the lesson and pays it online: a payment row (the lesson
   * fee, the system fee) whose PaymentIntent succeeded at the fake.
   */
  async function paid(
    scheduleId: string,
    who: Who,
    at: { createdAt: Date; paidAt: Date },
  ): Promise<{ paymentId: string; paymentIntentId: string }> {
    await reserve(scheduleId, who);
    const [lessonRow] = await rowsWhere(
      suite.h,
      schedules,
      schedules.id,
      scheduleId,
    );
    const fee = lessonRow!.fee;
    const paymentId = newId();
    const intent = await client().paymentIntents.create({
      amount: fee + SERVICE_FEE,
      currency: 'jpy',
      metadata: { paymentId, scheduleId, userId: who.id },
    });
    await fakeOf().succeed(intent.id);
    const { db } = suite.h.database;
    await db.insert(payments).values({
      id: paymentId,
      scheduleId,
      userId: who.id,
      amount: fee,
      serviceFee: SERVICE_FEE,
      status: 'paid',
      paymentIntentId: intent.id,
      holdExpiresAt: new Date(at.createdAt.getTime() + 15 * MINUTE),
      paidAt: at.paidAt,
      createdAt: at.createdAt,
    });
    await db
      .update(reservations)
      .set({
        paymentId,
        paymentStatus: 'paid',
        amount: fee,
        serviceFee: SERVICE_FEE,
      })
      .where(reservationOf(scheduleId, who.id));
    return { paymentId, paymentIntentId: intent.id };
  }

  return { lesson, moveTo, reserve, paid, client };
}

async function refundOf(suite: MemberSuite, paymentId: string) {
  const row = await refundRow(suite.h, paymentId);
  assert.ok(row, `refund of ${paymentId}`);
  return row;
}

/** `pro`'s 売上明細 for `month`, read by the pro themself. */
async function statementOf(
  suite: MemberSuite,
  pro: string,
  month: string,
): Promise<Statement> {
  const r = await suite.expect(
    pro,
    '/payment/statement',
    { proId: suite.ids[pro], month },
    200,
  );
  return r.json.body as Statement;
}

/** Every POST /v1/refunds the fake answered for one refund's idempotency key. */
const refundCalls = (fake: StripeFake, refundId: string) =>
  fake.state.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === '/v1/refunds' &&
      r.idempotencyKey === `refund-${refundId}`,
  );

/** The refunds the fake made for one PaymentIntent (the money that left). */
const refundsAtStripe = (fake: StripeFake, paymentIntentId: string) =>
  [...fake.state.refunds.values()].filter(
    (r) => r.payment_intent === paymentIntentId,
  );

for (const driver of DRIVERS) {
  describe(`payment records (${driver})`, () => {
    const clock = new TestClock();
    const suite = memberSuite(driver, {}, { clock });
    let fake: StripeFake;
    const m = money(suite, () => fake);
    before(async () => {
      fake = await startStripeFake();
    });
    after(() => fake.close());

    // A past month no seeded lesson of pro4/pro5 is paid in (nothing was paid before online payment came).
    const month = '2026-03';

    it('a statement counts paid participants only and takes the commission once, on the month total', async () => {
      const ama = await extraAmateurs(suite.h, 6, `stmt-${driver}`);
      const at = { createdAt: new Date(), paidAt: new Date() };
      const { db } = suite.h.database;
      /** Moves a paid payment and its reservation to another state, as if it had gone there. */
      const restate = async (
        paymentId: string,
        payment: Partial<typeof payments.$inferInsert>,
        reservation: Partial<typeof reservations.$inferInsert>,
      ) => {
        await db
          .update(payments)
          .set(payment)
          .where(eq(payments.id, paymentId));
        await db
          .update(reservations)
          .set(reservation)
          .where(eq(reservations.paymentId, paymentId));
      };
      // L1 ¥2,345 × 3 paid; a fourth paid, then cancelled and refunded: not counted.
      const l1 = await m.lesson('pro4', { fee: 2345, startTime: '13:00' });
      for (const a of ama.slice(0, 3)) await m.paid(l1, a, at);
      const refunded = (await m.paid(l1, ama[3]!, at)).paymentId;
      await restate(
        refunded,
        { status: 'refunded', refundedAt: new Date() },
        { status: 'cancelled', paymentStatus: 'refunded' },
      );
      // L2 ¥2,655 × 1 paid, and a hold not paid yet: not counted.
      const l2 = await m.lesson('pro4', { fee: 2655, startTime: '08:00' });
      await m.paid(l2, ama[0]!, at);
      const pendingHold = (await m.paid(l2, ama[5]!, at)).paymentId;
      await restate(
        pendingHold,
        { status: 'pending', paidAt: null },
        { status: 'pending', paymentStatus: 'requires_payment' },
      );
      // L3 ¥2,655 × 1 paid, and one to pay at the course: not counted.
      const l3 = await m.lesson('pro4', { fee: 2655, startTime: '09:00' });
      await m.paid(l3, ama[1]!, at);
      await m.reserve(l3, ama[4]!);
      // A called-off lesson and one of another month: not in March's statement.
      const off = await m.lesson('pro4', { fee: 9000 });
      await m.paid(off, ama[2]!, at);
      await db
        .update(schedules)
        .set({ statusRound: 'cancelled' })
        .where(eq(schedules.id, off));
      const april = await m.lesson('pro4', { fee: 7000 });
      await m.paid(april, ama[2]!, at);
      // In date order: L2 (08:00) and L3 (09:00) on the 10th, L1 on the 31st.
      await m.moveTo(l1, '2026-03-31');
      await m.moveTo(l2, '2026-03-10');
      await m.moveTo(l3, '2026-03-10');
      await m.moveTo(off, '2026-03-15');
      await m.moveTo(april, '2026-04-01');

      const s = await statementOf(suite, 'pro4', month);
      assert.equal(s.month, month);
      assert.equal(s.proId, suite.ids.pro4);
      assert.ok(s.proName.length > 0);
      assert.deepEqual(
        columns(s.lessons, [
          'scheduleId',
          'date',
          'startTime',
          'fee',
          'participants',
        ]),
        [
          [l2, '2026-03-10', '08:00', 2655, 1],
          [l3, '2026-03-10', '09:00', 2655, 1],
          [l1, '2026-03-31', '13:00', 2345, 3],
        ],
      );
      assert.equal(s.lessons[0]!.place, '精算テストゴルフ倶楽部');
      // 2,345 × 3 + 2,655 + 2,655 = 12,345; 10 % is 1,234.5, rounded down once: 1,234
      // (per lesson it would be 703 + 265 + 265 = 1,233).
      assert.equal(s.grossFee, 12345);
      assert.equal(s.commission, 1234);
      assert.equal(s.payout, 11111);

      // April holds only the lesson moved there.
      const apr = await statementOf(suite, 'pro4', '2026-04');
      assert.deepEqual(
        apr.lessons.map((l) => l.scheduleId),
        [april],
      );
      assert.deepEqual(
        [apr.grossFee, apr.commission, apr.payout],
        [7000, 700, 6300],
      );

      // Admins: every pro with a paid participant that month, by payout.
      const l5 = await m.lesson('pro5', { fee: 20000 });
      await m.paid(l5, ama[3]!, at);
      await m.moveTo(l5, '2026-03-20');
      const all = (
        await suite.expect('admin', '/payment/statements', { month }, 200)
      ).json.body as Statements;
      assert.equal(all.month, month);
      assert.deepEqual(
        columns(all.pros, [
          'proId',
          'lessons',
          'participants',
          'grossFee',
          'commission',
          'payout',
        ]),
        [
          [suite.ids.pro5, 1, 1, 20000, 2000, 18000],
          [suite.ids.pro4, 3, 5, 12345, 1234, 11111],
        ],
      );
      // A participant who deletes their account later takes their
      // reservations with them, not what they paid for lessons held.
      await db.delete(users).where(eq(users.id, ama[0]!.id));
      assert.equal(
        (
          await rowsWhere(
            suite.h,
            reservations,
            reservations.userId,
            ama[0]!.id,
          )
        ).length,
        0,
      );
      const after = await statementOf(suite, 'pro4', month);
      assert.deepEqual(
        [after.lessons.length, after.grossFee, after.commission, after.payout],
        [3, 12345, 1234, 11111],
      );
      // A month nobody was paid in: an empty statement, not an error.
      const empty = await statementOf(suite, 'pro4', '2025-01');
      assert.deepEqual(
        [empty.lessons, empty.grossFee, empty.commission, empty.payout],
        [[], 0, 0, 0],
      );
    });

    it('a statement shows the fee its participants paid, not the lesson’s fee now, and its lines add up to grossFee', async () => {
      const ama = await extraAmateurs(suite.h, 4, `paidfee-${driver}`);
      const at = { createdAt: new Date(), paidAt: new Date() };
      const { db } = suite.h.database;
      const feb = '2026-02';
      const setFee = (scheduleId: string, fee: number) =>
        db.update(schedules).set({ fee }).where(eq(schedules.id, scheduleId));
      // Paid ¥3,000 × 2, then the fee became ¥5,000 (written here: the API refuses it now).
      const raised = await m.lesson('pro4', { fee: 3000 });
      for (const a of ama.slice(0, 2)) await m.paid(raised, a, at);
      await setFee(raised, 5000);
      // Older data: two paid ¥4,000, then the fee became ¥4,500 and a third paid that.
      const mixed = await m.lesson('pro4', { fee: 4000 });
      for (const a of ama.slice(2, 4)) await m.paid(mixed, a, at);
      await setFee(mixed, 4500);
      await m.paid(mixed, ama[0]!, at);
      await setFee(mixed, 6000);
      await m.moveTo(raised, '2026-02-10');
      await m.moveTo(mixed, '2026-02-20');

      const s = await statementOf(suite, 'pro4', feb);
      // One line per amount paid: what those participants paid, times how many.
      assert.deepEqual(
        columns(s.lessons, ['scheduleId', 'date', 'fee', 'participants']),
        [
          [raised, '2026-02-10', 3000, 2],
          [mixed, '2026-02-20', 4000, 2],
          [mixed, '2026-02-20', 4500, 1],
        ],
      );
      assert.equal(
        s.lessons.reduce((sum, l) => sum + l.fee * l.participants, 0),
        s.grossFee,
      );
      assert.deepEqual(
        [s.grossFee, s.commission, s.payout],
        [18500, 1850, 16650],
      );
      // Admins: the same money; a lesson of two lines is one lesson.
      const all = (
        await suite.expect('admin', '/payment/statements', { month: feb }, 200)
      ).json.body as Statements;
      assert.deepEqual(
        columns(
          all.pros.filter((p) => p.proId === suite.ids.pro4),
          ['lessons', 'participants', 'grossFee', 'commission', 'payout'],
        ),
        [[2, 5, 18500, 1850, 16650]],
      );
    });

    it('a statement counts a paid lesson once it has started (Japan time), not before: this month shows the lessons held so far', async () => {
      const ama = await extraAmateurs(suite.h, 2, `held-${driver}`);
      const at = { createdAt: new Date(), paidAt: new Date() };
      const { db } = suite.h.database;
      const records = paymentRecordRepository(db);
      // Through the API, now: a paid lesson later this Japan month is not counted yet.
      const now = new Date();
      const thisMonth = japanDate(now).slice(0, 7);
      const [y, mo] = thisMonth.split('-').map(Number) as [number, number];
      const lastDay = new Date(Date.UTC(y, mo, 0)).toISOString().slice(0, 10);
      const startsAt = new Date(`${lastDay}T23:59:00+09:00`);
      const tonight = await m.lesson('pro4', { fee: 7000 });
      await m.paid(tonight, ama[0]!, at);
      await db
        .update(schedules)
        .set({ date: lastDay, startTime: '23:59' })
        .where(eq(schedules.id, tonight));
      const before = await statementOf(suite, 'pro4', thisMonth);
      const all = (
        await suite.expect(
          'admin',
          '/payment/statements',
          { month: thisMonth },
          200,
        )
      ).json.body as Statements;
      // Once it has started, it is.
      const started = await records.statement(
        suite.ids.pro4!,
        thisMonth,
        startsAt,
      );
      assert.deepEqual(
        columns(
          started.lessons.filter((l) => l.scheduleId === tonight),
          ['fee', 'participants'],
        ),
        [[7000, 1]],
      );
      // (Unless the month's last minute came meanwhile: nothing of it is then still to come.)
      if (Date.now() < startsAt.getTime()) {
        assert.ok(!before.lessons.some((l) => l.scheduleId === tonight));
        assert.equal(
          all.pros.find((p) => p.proId === suite.ids.pro4)?.grossFee ?? 0,
          before.grossFee,
        );
        assert.equal(started.grossFee, before.grossFee + 7000);
      }

      const may = '2026-05';
      const held = await m.lesson('pro4', { fee: 1000 });
      await m.paid(held, ama[0]!, at);
      // 08:00 on 20 May in Japan is 23:00 on 19 May in UTC.
      const later = await m.lesson('pro4', { fee: 2000, startTime: '08:00' });
      await m.paid(later, ama[1]!, at);
      await m.moveTo(held, '2026-05-02');
      await m.moveTo(later, '2026-05-20');

      const linesAt = async (iso: string) => {
        const now = new Date(iso);
        const s = await records.statement(suite.ids.pro4!, may, now);
        const all = await records.statements(may, now);
        const pro4 = all.pros.find((p) => p.proId === suite.ids.pro4);
        return {
          lines: s.lessons.map((l) => l.scheduleId),
          gross: s.grossFee,
          admin: pro4 && [pro4.lessons, pro4.grossFee],
        };
      };
      // Before its start, on its day in Japan (and the day before in UTC): not yet.
      for (const iso of [
        '2026-05-10T03:00:00Z',
        '2026-05-19T15:00:00Z',
        '2026-05-19T22:59:59.999Z',
      ])
        assert.deepEqual(
          await linesAt(iso),
          { lines: [held], gross: 1000, admin: [1, 1000] },
          iso,
        );
      // From its start on: counted.
      for (const iso of ['2026-05-19T23:00:00Z', '2026-06-15T00:00:00Z'])
        assert.deepEqual(
          await linesAt(iso),
          { lines: [held, later], gross: 3000, admin: [2, 3000] },
          iso,
        );
      // Before the month began, nothing of it.
      assert.deepEqual(await linesAt('2026-04-30T14:59:00Z'), {
        lines: [],
        gross: 0,
        admin: undefined,
      });
    });

    it('lets a pro read their own statement, an admin anyone’s, and nobody else', async () => {
      const own = { proId: suite.ids.pro4, month };
      await suite.expect('pro4', '/payment/statement', own, 200);
      await suite.expect('admin', '/payment/statement', own, 200);
      await suite.expect('pro5', '/payment/statement', own, 403);
      await suite.expect('ama1', '/payment/statement', own, 403);
      // Only pros have statements: an amateur's or an admin's id is not found.
      await suite.expect(
        'ama1',
        '/payment/statement',
        { proId: suite.ids.ama1, month },
        404,
      );
      await suite.expect(
        'admin',
        '/payment/statement',
        { proId: suite.ids.ama1, month },
        404,
      );
      await suite.expect(
        'admin',
        '/payment/statement',
        { proId: suite.ids.pro4, month: '2026-13' },
        400,
      );
      for (const who of ['pro4', 'ama1'])
        await suite.expect(who, '/payment/statements', { month }, 403);
      for (const who of ['pro4', 'ama1']) {
        await suite.expect(who, '/payment/refunds', {}, 403);
        await suite.expect(who, '/payment/refundRetry', { id: newId() }, 403);
      }
      await suite.expect('admin', '/payment/refundRetry', { id: newId() }, 404);
    });

    it("lists the caller's payments newest first, with a receipt number once money was taken", async () => {
      const [me, other] = await extraAmateurs(suite.h, 2, `list-${driver}`);
      const lessons = await Promise.all(
        [11000, 12000, 13000, 14000].map((fee) => m.lesson('pro5', { fee })),
      );
      const t0 = new Date('2026-03-31T15:00:00Z');
      const when = (i: number) => ({
        createdAt: new Date(t0.getTime() + i * MINUTE),
        // 00:30 on 1 April in Japan, though still 31 March in UTC.
        paidAt: new Date(t0.getTime() + 30 * MINUTE + i * MINUTE),
      });
      const p = [];
      for (const [i, l] of lessons.entries())
        p.push(await m.paid(l, me!, when(i)));
      await m.paid(lessons[0]!, other!, when(9));
      const { db } = suite.h.database;
      await db
        .update(payments)
        .set({
          status: 'refunded',
          refundedAt: new Date(t0.getTime() + 99 * MINUTE),
        })
        .where(eq(payments.id, p[1]!.paymentId));
      await db
        .update(payments)
        .set({ status: 'failed', paidAt: null, failure: 'expired' })
        .where(eq(payments.id, p[2]!.paymentId));
      await db
        .update(payments)
        .set({ status: 'pending', paidAt: null })
        .where(eq(payments.id, p[3]!.paymentId));

      const r = await suite.h.app.inject({
        method: 'POST',
        url: '/api/payment/list',
        headers: me!.auth.headers,
      });
      assert.equal(r.statusCode, 200, r.body);
      const list = r.json<{ body: Payment[] }>().body;
      assert.deepEqual(
        columns(list, ['reservationId', 'status', 'amount', 'serviceFee']),
        [
          [p[3]!.paymentId, 'pending', 14000, 550],
          [p[2]!.paymentId, 'failed', 13000, 550],
          [p[1]!.paymentId, 'refunded', 12000, 550],
          [p[0]!.paymentId, 'paid', 11000, 550],
        ],
      );
      const [pending, failed, refunded, paid] = list as [
        Payment,
        Payment,
        Payment,
        Payment,
      ];
      assert.equal(pending.receiptNo, undefined);
      assert.equal(failed.receiptNo, undefined);
      const tail = (id: string) => id.slice(-8).toUpperCase();
      // The Japan date it was paid: 1 April.
      assert.equal(paid.receiptNo, `R20260401-${tail(p[0]!.paymentId)}`);
      assert.match(paid.receiptNo!, /^R\d{8}-[0-9A-Z]{8}$/);
      assert.equal(refunded.receiptNo, `R20260401-${tail(p[1]!.paymentId)}`);
      assert.equal(
        refunded.refundedAt,
        new Date(t0.getTime() + 99 * MINUTE).toISOString(),
      );
      assert.equal(paid.paidAt, when(0).paidAt.toISOString());
      assert.equal(paid.createdAt, when(0).createdAt.toISOString());
      assert.equal(paid.scheduleId, lessons[0]);
      assert.equal(paid.proId, suite.ids.pro5);
      assert.equal(paid.place, '精算テストゴルフ倶楽部');
      assert.equal(paid.startTime, '09:00');
      assert.equal(
        receiptNoOf(p[0]!.paymentId, when(0).paidAt),
        paid.receiptNo,
      );

      // Paged: the second page of two.
      const page2 = await suite.h.app.inject({
        method: 'POST',
        url: '/api/payment/list',
        headers: { ...me!.auth.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ page: 2, size: 2 }),
      });
      assert.deepEqual(
        page2.json<{ body: Payment[] }>().body.map((x) => x.reservationId),
        [p[1]!.paymentId, p[0]!.paymentId],
      );
      // Someone who paid nothing online: an empty list.
      const none = await suite.expect('ama4', '/payment/list', {}, 200);
      assert.deepEqual(none.json.body, []);
    });
  });

  describe(`refunds (${driver})`, () => {
    const clock = new TestClock();
    const suite = memberSuite(driver, {}, { clock });
    let fake: StripeFake;
    const m = money(suite, () => fake);
    let worker: RefundWorker;
    const appUrl = 'https://proam.example.jp';
    before(async () => {
      fake = await startStripeFake();
      worker = createRefundWorker({
        refunds: refundRepository(suite.h.database.db, appUrl),
        stripe: m.client(),
        clock,
        log: suite.h.app.log,
      });
    });
    after(async () => {
      await worker.stop();
      await fake.close();
    });

    /** A paid reservation of a new amateur, and its refund queued as a cancellation would. */
    async function owed(tag: string, reason: RefundReason = 'cancelled') {
      const [a] = await extraAmateurs(suite.h, 1, `${tag}-${driver}`);
      const l = await m.lesson('pro2', { fee: 23000 });
      const now = clock.now();
      const p = await m.paid(l, a!, { createdAt: now, paidAt: now });
      const queued = await suite.h.database.db.transaction((tx) =>
        queueRefund(tx, p.paymentId, reason, clock.now()),
      );
      assert.equal(queued, true);
      return {
        ...p,
        user: a!,
        scheduleId: l,
        email: `${tag}-${driver}-0@example.jp`,
      };
    }

    /** The refund as admins see it in /payment/refunds filtered by `status`. */
    async function listedRefund(status: string, id: string) {
      const r = await suite.expect(
        'admin',
        '/payment/refunds',
        { status },
        200,
      );
      const found = (r.json.body as Refund[]).find((x) => x.id === id);
      assert.ok(found, `refund ${id} listed as ${status}`);
      return found;
    }

    it('queues a refund once per payment, for the fee and the system fee', async () => {
      const o = await owed('once');
      const again = await suite.h.database.db.transaction((tx) =>
        queueRefund(tx, o.paymentId, 'calledOff', clock.now()),
      );
      assert.equal(again, false);
      const r = await refundOf(suite, o.paymentId);
      assert.deepEqual(
        [r.amount, r.reason, r.status, r.attempts],
        [23550, 'cancelled', 'pending', 0],
      );
      // A refund queued in a transaction that rolls back was never owed.
      const [b] = await extraAmateurs(suite.h, 1, `rollback-${driver}`);
      const l = await m.lesson('pro2', { fee: 5000 });
      const p = await m.paid(l, b!, {
        createdAt: clock.now(),
        paidAt: clock.now(),
      });
      await assert.rejects(
        suite.h.database.db.transaction(async (tx) => {
          await queueRefund(tx, p.paymentId, 'cancelled', clock.now());
          throw new Error('the change that owed it failed');
        }),
      );
      assert.equal(await refundRow(suite.h, p.paymentId), undefined);
      await worker.runOnce();
    });

    it('refunds at Stripe once, however many rounds run, and records it with the 返金 mail in one go', async () => {
      const o = await owed('ok');
      // Two rounds at once (two instances, or a kick during a job round), then one more.
      const handled = await Promise.all([worker.runOnce(), worker.runOnce()]);
      assert.equal(handled[0]! + handled[1]!, 1);
      assert.equal(await worker.runOnce(), 0);

      const refund = await refundOf(suite, o.paymentId);
      assert.equal(refund.status, 'succeeded');
      assert.equal(refund.attempts, 0);
      const atStripe = refundsAtStripe(fake, o.paymentIntentId);
      assert.equal(atStripe.length, 1);
      assert.equal(atStripe[0]!.amount, 23550);
      assert.equal(refund.stripeRefundId, atStripe[0]!.id);
      assert.equal(refundCalls(fake, refund.id).length, 1);

      const payment = await paymentRow(suite.h, o.paymentId);
      assert.equal(payment.status, 'refunded');
      assert.ok(payment.refundedAt);
      const [reservation] = await rowsWhere(
        suite.h,
        reservations,
        reservations.paymentId,
        o.paymentId,
      );
      assert.equal(reservation!.paymentStatus, 'refunded');

      const mails = await memberMails(suite.h, o.user.id, /返金/);
      assert.equal(mails.length, 1);
      const mail = mails[0]!;
      assert.equal(mail.category, 'booking');
      assert.equal(mail.toAddress, o.email);
      assert.match(mail.subject, /^【ProAm Connect】返金のお知らせ/);
      assert.match(mail.body, /返金額：23,550円/);
      assert.match(mail.body, /返金の理由：ご予約のキャンセル/);
      assert.match(
        mail.body,
        /カード会社により反映まで数日かかる場合があります/,
      );

      // Admins see it settled.
      const mine = await listedRefund('succeeded', refund.id);
      assert.equal(mine.reservationId, o.paymentId);
      assert.equal(mine.scheduleId, o.scheduleId);
      assert.equal(mine.userId, o.user.id);
      assert.equal(mine.userName, `ok-${driver} 0`);
      assert.equal(mine.stripeRefundId, atStripe[0]!.id);
      assert.equal(mine.nextAttemptAt, undefined);
    });

    it('gets Stripe’s first refund back when a worker died after Stripe refunded', async () => {
      const o = await owed('crash');
      const refund = await refundOf(suite, o.paymentId);
      // The refund the dead worker got from Stripe, never recorded here.
      const first = await m
        .client()
        .refunds.create(
          { payment_intent: o.paymentIntentId, amount: refund.amount },
          { idempotencyKey: `refund-${refund.id}` },
        );
      assert.equal(await worker.runOnce(), 1);
      assert.equal(refundsAtStripe(fake, o.paymentIntentId).length, 1);
      assert.equal(
        (await refundOf(suite, o.paymentId)).stripeRefundId,
        first.id,
      );
    });

    it('retries a refusal after 1, 5, 30 minutes … and after the sixth leaves it failed for an admin, who can send it again', async () => {
      const o = await owed('refused', 'calledOff');
      const { id } = await refundOf(suite, o.paymentId);
      fake.failNextRefunds(6);
      const waits = [1, 5, 30, 120, 360];
      for (let attempt = 1; attempt <= 6; attempt++) {
        const start = clock.now();
        assert.equal(await worker.runOnce(), 1, `attempt ${attempt}`);
        const r = await refundOf(suite, o.paymentId);
        assert.equal(r.attempts, attempt);
        assert.match(r.lastError ?? '', /insufficient funds/);
        if (attempt < 6) {
          assert.equal(r.status, 'pending');
          const wait = r.nextAttemptAt.getTime() - start.getTime();
          // The wait, give or take the time the round took.
          assert.ok(
            wait >= waits[attempt - 1]! * MINUTE &&
              wait < waits[attempt - 1]! * MINUTE + 5_000,
            `attempt ${attempt} waits ${wait} ms`,
          );
          // Not due yet: nothing is sent.
          assert.equal(await worker.runOnce(), 0);
          clock.advance(waits[attempt - 1]! * MINUTE);
        } else assert.equal(r.status, 'failed');
      }
      assert.equal(refundCalls(fake, id).length, 6);
      assert.equal(refundsAtStripe(fake, o.paymentIntentId).length, 0);
      assert.equal((await paymentRow(suite.h, o.paymentId)).status, 'paid');
      assert.ok(
        suite.h.logs.some((l) => l.includes('"level":50') && l.includes(id)),
        'logged at error level',
      );
      // Failed: no round takes it again, however long one waits.
      clock.advance(24 * 60 * MINUTE);
      assert.equal(await worker.runOnce(), 0);

      // Admins see the failed refund.
      const shown = await listedRefund('failed', id);
      assert.equal(shown.attempts, 6);
      assert.equal(shown.reason, 'calledOff');
      assert.match(shown.lastError ?? '', /insufficient funds/);

      // 再試行: due now with a fresh count, then sent.
      const retried = (
        await suite.expect('admin', '/payment/refundRetry', { id }, 200)
      ).json.body as Refund;
      assert.equal(retried.status, 'pending');
      assert.equal(retried.attempts, 0);
      assert.ok(retried.nextAttemptAt);
      assert.ok(Date.parse(retried.nextAttemptAt) <= clock.now().getTime());
      assert.equal(await worker.runOnce(), 1);
      const done = await refundOf(suite, o.paymentId);
      assert.equal(done.status, 'succeeded');
      assert.equal(refundsAtStripe(fake, o.paymentIntentId).length, 1);
      assert.equal((await paymentRow(suite.h, o.paymentId)).status, 'refunded');
      // A refund that succeeded cannot be sent again.
      await suite.expect('admin', '/payment/refundRetry', { id }, 409);
      clock.set(new Date());
    });

    it('a refusal then a success: Stripe refunds once, after the backoff', async () => {
      const o = await owed('late', 'late');
      fake.failNextRefunds(1, 'rate_limit');
      assert.equal(await worker.runOnce(), 1);
      assert.equal((await refundOf(suite, o.paymentId)).status, 'pending');
      clock.advance(MINUTE);
      assert.equal(await worker.runOnce(), 1);
      const r = await refundOf(suite, o.paymentId);
      assert.deepEqual([r.status, r.attempts], ['succeeded', 1]);
      assert.equal(refundsAtStripe(fake, o.paymentIntentId).length, 1);
      const mails = await memberMails(suite.h, o.user.id, /返金/);
      assert.ok(mails.some((x) => /お取り置き期限/.test(x.body)));
      clock.set(new Date());
    });

    it('the 返金 mail is a booking notice: a member who turned those off is not sent it', async () => {
      const o = await owed('quiet');
      await suite.h.database.db
        .update(users)
        .set({ notifyBooking: false })
        .where(eq(users.id, o.user.id));
      assert.equal(await worker.runOnce(), 1);
      assert.equal((await refundOf(suite, o.paymentId)).status, 'succeeded');
      let mail: typeof mailOutbox.$inferSelect | undefined;
      for (let i = 0; i < 200; i++) {
        [mail] = await memberMails(suite.h, o.user.id, /返金/);
        if (mail && mail.status !== 'queued' && mail.status !== 'sending')
          break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(mail?.category, 'booking');
      assert.equal(mail.status, 'skipped');
    });

    it('kick() runs a round soon, coalescing kicks in a row', async () => {
      const a = await owed('kick-a');
      const b = await owed('kick-b');
      worker.kick();
      worker.kick();
      worker.kick();
      for (let i = 0; i < 100; i++) {
        const rows = await Promise.all([
          refundOf(suite, a.paymentId),
          refundOf(suite, b.paymentId),
        ]);
        if (rows.every((r) => r.status === 'succeeded')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal((await refundOf(suite, a.paymentId)).status, 'succeeded');
      assert.equal((await refundOf(suite, b.paymentId)).status, 'succeeded');
      assert.equal(refundsAtStripe(fake, a.paymentIntentId).length, 1);
      assert.equal(refundsAtStripe(fake, b.paymentIntentId).length, 1);
    });

    it('claims one refund at a time, so a lease covers the one Stripe call it waits on', async () => {
      const a = await owed('one-a');
      const b = await owed('one-b');
      const repo = refundRepository(suite.h.database.db, appUrl);
      const limits: number[] = [];
      const counting = createRefundWorker({
        refunds: {
          ...repo,
          claimDue: (now: Date, limit: number) => {
            limits.push(limit);
            return repo.claimDue(now, limit);
          },
        },
        stripe: m.client(),
        clock,
        log: suite.h.app.log,
      });
      assert.ok((await counting.runOnce()) >= 2);
      await counting.stop();
      assert.ok(limits.length >= 3, 'a claim per refund, and one finding none');
      assert.deepEqual(new Set(limits), new Set([1]));
      assert.equal((await refundOf(suite, a.paymentId)).status, 'succeeded');
      assert.equal((await refundOf(suite, b.paymentId)).status, 'succeeded');
    });

    it('records Stripe’s refund even when the refund was marked failed meanwhile (a lease that ran out)', async () => {
      const o = await owed('late-answer');
      const { id } = await refundOf(suite, o.paymentId);
      await suite.h.database.db
        .update(refunds)
        .set({ status: 'failed', attempts: 6 })
        .where(eq(refunds.id, id));
      const repo = refundRepository(suite.h.database.db, appUrl);
      assert.equal(
        await repo.markSucceeded(
          { id, paymentId: o.paymentId },
          're_fromStripe',
          clock.now(),
        ),
        true,
      );
      const refund = await refundOf(suite, o.paymentId);
      assert.equal(refund.status, 'succeeded');
      assert.equal(refund.stripeRefundId, 're_fromStripe');
      assert.equal((await paymentRow(suite.h, o.paymentId)).status, 'refunded');
    });

    it('records a refund only once it holds the lesson, the lock /schedule/cancel takes first (no deadlock)', async () => {
      const o = await owed('lock-order');
      const { id } = await refundOf(suite, o.paymentId);
      const repo = refundRepository(suite.h.database.db, appUrl);
      let marking: Promise<boolean> | undefined;
      const seen = await suite.h.database.db.transaction(async (tx) => {
        await tx
          .select({ id: schedules.id })
          .from(schedules)
          .where(eq(schedules.id, o.scheduleId))
          .for('update');
        marking = repo.markSucceeded(
          { id, paymentId: o.paymentId },
          're_lockOrder',
          clock.now(),
        );
        await new Promise((r) => setTimeout(r, 300));
        const [row] = await tx
          .select({ status: refunds.status })
          .from(refunds)
          .where(eq(refunds.id, id));
        return row!.status;
      });
      // While the lesson was held, the refund waited (nothing half-recorded).
      assert.equal(seen, 'pending');
      assert.equal(await marking, true);
      assert.equal((await refundOf(suite, o.paymentId)).status, 'succeeded');
    });
  });
}

for (const driver of DRIVERS) {
  describe(`refunds of cancelled and called-off lessons, end to end (${driver})`, () => {
    // Payments ON against the fake: its url and keys are known once it runs,
    // before the suite's harness is made (hooks run in order).
    const env: Record<string, string> = {};
    let fake: StripeFake;
    before(async () => {
      fake = await startStripeFake();
      Object.assign(env, {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_proamfake',
        STRIPE_API_BASE: fake.url,
      });
    });
    after(() => fake.close());
    const suite = memberSuite(driver, env);
    let day = 120;

    /** A lesson of pro2 with a fee, paid online by each of `who` (start, the card succeeds, confirm). */
    async function paidLesson(who: Who[], capacity = 4) {
      const { id } = await createLesson(suite, 'pro2', {
        date: day++,
        place: '返金テストカントリークラブ',
        fee: 23000,
        capacity,
      });
      const paid: { paymentId: string; intent: string }[] = [];
      for (const a of who) {
        const post = (path: string, body: unknown) =>
          suite.h.app.inject({
            method: 'POST',
            url: `/api${path}`,
            headers: { ...a.auth.headers, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
        const start = await post('/payment/start', { scheduleId: id });
        assert.equal(start.statusCode, 200, start.body);
        const { reservationId } = start.json<{
          body: { reservationId: string };
        }>().body;
        const intent = [...fake.state.paymentIntents.values()].find(
          (pi) => pi.metadata.paymentId === reservationId,
        );
        assert.ok(intent, 'a PaymentIntent for the hold');
        await fake.succeed(intent.id);
        const confirm = await post('/payment/confirm', { reservationId });
        assert.equal(confirm.statusCode, 200, confirm.body);
        assert.equal(confirm.json<{ body: Payment }>().body.status, 'paid');
        paid.push({ paymentId: reservationId, intent: intent.id });
      }
      return { id, paid };
    }

    /** Waits until the refund of `paymentId` has settled (the worker runs after the commit). */
    async function settledRefund(paymentId: string) {
      for (let i = 0; i < 200; i++) {
        await suite.h.app.payments?.settled();
        const r = await refundRow(suite.h, paymentId);
        if (r && r.status !== 'pending') return r;
        await new Promise((res) => setTimeout(res, 20));
      }
      assert.fail(`refund of ${paymentId} not settled`);
    }

    it('a paid reservation cancelled in time is refunded in full, once, with the お支払い and 返金 mails', async () => {
      const [a] = await extraAmateurs(suite.h, 1, `e2e-cancel-${driver}`);
      const { id, paid } = await paidLesson([a!]);
      const { paymentId, intent } = paid[0]!;
      const [receipt] = await memberMails(suite.h, a!.id, /お支払い/);
      assert.ok(receipt, 'the お支払い mail');
      assert.match(receipt.body, /合計（税込）：23,550円/);
      assert.match(receipt.body, new RegExp(`/#/receipt/${paymentId}`));

      const cancel = await suite.h.app.inject({
        method: 'POST',
        url: '/api/schedule/cancel',
        headers: { ...a!.auth.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ id }),
      });
      assert.equal(cancel.statusCode, 200, cancel.body);
      const refund = await settledRefund(paymentId);
      assert.deepEqual(
        [refund.status, refund.reason, refund.amount],
        ['succeeded', 'cancelled', 23550],
      );
      assert.equal(refundsAtStripe(fake, intent).length, 1);
      assert.equal(refundsAtStripe(fake, intent)[0]!.amount, 23550);
      assert.equal((await paymentRow(suite.h, paymentId)).status, 'refunded');
      const refundMail = await memberMails(suite.h, a!.id, /返金/);
      assert.equal(refundMail.length, 1);
      assert.match(refundMail[0]!.body, /返金の理由：ご予約のキャンセル/);

      // 支払い履歴 shows it refunded, its receipt number kept.
      const list = await suite.h.app.inject({
        method: 'POST',
        url: '/api/payment/list',
        headers: a!.auth.headers,
      });
      const [shown] = list.json<{ body: Payment[] }>().body;
      assert.equal(shown?.reservationId, paymentId);
      assert.equal(shown.status, 'refunded');
      assert.match(shown.receiptNo ?? '', /^R\d{8}-[0-9A-Z]{8}$/);
    });

    it('a place freed on a paid lesson is held for the first in line, who is mailed to pay within the hold', async () => {
      const [first, next] = await extraAmateurs(
        suite.h,
        2,
        `e2e-promote-${driver}`,
      );
      const { id: scheduleId, paid } = await paidLesson([first!], 1);
      const as = (who: Who, path: string) =>
        suite.h.app.inject({
          method: 'POST',
          url: `/api${path}`,
          headers: { ...who.auth.headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ id: scheduleId }),
        });
      assert.equal((await as(next!, '/schedule/waitlistJoin')).statusCode, 200);
      assert.equal((await as(first!, '/schedule/cancel')).statusCode, 200);
      await settledRefund(paid[0]!.paymentId);

      const held = await memberMails(suite.h, next!.id, /キャンセル待ち/);
      assert.equal(held.length, 1);
      assert.match(held[0]!.body, /お支払い期限：\d{2}:\d{2}/);
      assert.match(held[0]!.body, new RegExp(`/#/payment/${scheduleId}`));
      assert.doesNotMatch(held[0]!.subject, /確定/);
      // The pro hears who was offered the place; nothing is confirmed until they pay.
      const toPro = (
        await memberMails(suite.h, suite.ids.pro2!, /キャンセル待ち/)
      ).filter((x) => x.body.includes(`e2e-promote-${driver} 1`));
      assert.equal(toPro.length, 1);
      assert.doesNotMatch(toPro[0]!.subject, /確定/);
      assert.match(toPro[0]!.body, /までにお支払いが済むと予約が確定/);
    });

    it('a called-off lesson refunds every paid participant', async () => {
      const who = await extraAmateurs(suite.h, 2, `e2e-calloff-${driver}`);
      const { id, paid } = await paidLesson(who);
      await suite.expect(
        'pro2',
        '/schedule/callOff',
        { id, reason: '雨天のため' },
        200,
      );
      for (const { paymentId, intent } of paid) {
        const refund = await settledRefund(paymentId);
        assert.deepEqual(
          [refund.status, refund.reason],
          ['succeeded', 'calledOff'],
        );
        assert.equal(refundsAtStripe(fake, intent).length, 1);
      }
      for (const a of who) {
        const mails = await memberMails(suite.h, a.id, /返金/);
        assert.ok(mails.some((x) => /ラウンドレッスンの中止/.test(x.body)));
      }
      // Nothing paid is left in the month's statement for that lesson.
      const month = (
        await rowsWhere(suite.h, schedules, schedules.id, id)
      )[0]!.date.slice(0, 7);
      const s = await statementOf(suite, 'pro2', month);
      assert.equal(
        s.lessons.some((l) => l.scheduleId === id),
        false,
      );
    });
  });
}
