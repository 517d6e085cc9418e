/**
 * `npm run bench:payment` (also run at the end of `npm run bench`): figures,
 * not a test, for online payment, on PostgreSQL with the Stripe
 * stand-in (test-support/stripe-fake.ts) in this process as STRIPE_API_BASE.
 *
 * (a) /api/payment/start: every request a new 15-minute hold (a place taken
 *     in the lesson's transaction, then one PaymentIntent created at the fake
 *     with the hold's idempotency key), on BENCH_LESSONS (5,000) capacity-4
 *     lessons with a fee inserted in SQL, by BENCH_AMATEURS (4 × lessons)
 *     amateurs: lesson i mod L, by the (i div L)-th of four amateurs of that
 *     lesson, so each holds one place (an amateur may hold 3 unpaid places at
 *     once: with fewer amateurs the load would measure that refusal).
 *     After a 2-second warm-up, 50 connections for BENCH_SECONDS (10) as fast
 *     as the server answers (closed loop), then BENCH_RATE (100) requests a
 *     second evenly spaced over at most 50 connections. Target: p99 ≤ 50 ms.
 * (b) /api/payment/webhook: one signed `payment_intent.succeeded` event for
 *     each hold (a) made, up to BENCH_EVENTS (5,000), made by the fake (its
 *     webhook delivery off) and posted by this process 50 at a time. Events a
 *     second, and every hold confirmed. Target: ≥ 500 events/s. Then the
 *     same events again (Stripe's redeliveries): handled once, nothing changes.
 * Beside each: the CPU time per request of the API, of PostgreSQL, and of
 * this process (the load generator and the Stripe stand-in), which share the
 * machine's cores.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Stripe from 'stripe';
import {
  signPayload,
  startStripeFake,
  type StripeFake,
} from '../test-support/stripe-fake.ts';
import type { ServerProcess } from '../test-support/server-process.ts';
import {
  CONNECTIONS,
  closedLoop,
  cpuLine,
  cpuMeter,
  database,
  fourPerLesson,
  paced,
  server,
  token,
  warmUp,
  type Load,
  type RequestCpu,
} from './support.ts';

const LESSONS = Number(process.env.BENCH_LESSONS ?? 5_000);
const AMATEURS = Number(process.env.BENCH_AMATEURS ?? LESSONS * 4);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
const FEE = 10_000;

/** Posts `bodies` to `url`, `CONNECTIONS` at a time; answers seconds taken and statuses. */
async function postAll(
  url: string,
  deliveries: { body: string; signature: string }[],
): Promise<{ seconds: number; ok: number; failed: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let next = 0;
  let ok = 0;
  let failed = 0;
  const one = (d: { body: string; signature: string }) =>
    new Promise<void>((resolve) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': d.signature,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) ok++;
            else failed++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(d.body);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < deliveries.length; i = next++)
        await one(deliveries[i]!);
    }),
  );
  agent.destroy();
  return { seconds: (performance.now() - start) / 1000, ok, failed };
}

type Figures = {
  closed: Load;
  closedCpu: RequestCpu;
  pacedRun: Load;
  holds: number;
  intents: number;
  overCapacity: number;
  webhook: {
    events: number;
    perSecond: number;
    ok: number;
    failed: number;
    confirmed: number;
    replayPerSecond: number;
    changedByReplay: number;
    cpu: RequestCpu;
    replayCpu: RequestCpu;
    /** Events per transaction of the group commit (from the server's /metrics). */
    perBatch: number;
  };
};

const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** The webhook's group commit so far: batches and events, from /metrics. */
async function batches(origin: string) {
  const text = await (
    await fetch(`${origin}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
  ).text();
  const of = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    batches: of('proam_webhook_batch_events_count'),
    events: of('proam_webhook_batch_events_sum'),
  };
}

async function run(): Promise<Figures> {
  const db = await database('proam_paybench');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-paybench-'));
  const fake: StripeFake = await startStripeFake();
  let api: ServerProcess | undefined;
  try {
    api = await server({
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_bench',
      STRIPE_API_BASE: fake.url,
      // The holds outlive the bench: no expiry job in the middle of it.
      JOB_INTERVAL_MS: '0',
      METRICS_TOKEN,
    });
    const origin = api.origin;
    await db.query(`
      insert into users (id, type, email, password_hash, user_name)
      select 'PYA' || lpad(i::text, 23, '0'), 'amature', 'pya' || i || '@example.jp', 'x', 'ベンチ会員' || i
      from generate_series(0, ${AMATEURS - 1}) i`);
    // Lessons of the verified demo pros, four a day each from 2090 on, straight into the table.
    await db.query(`
      with pros as (
        select id, row_number() over (order by id) - 1 as k, count(*) over () as n
        from users where type = 'pro' and verified)
      insert into schedules (id, pro_id, date, start_time, end_time, place, capacity, fee)
      select 'PYL' || lpad(i::text, 23, '0'), p.id,
             to_char(date '2090-01-01' + (i / 20), 'YYYY-MM-DD'),
             (array['06:00','09:00','12:00','15:00'])[1 + (i / 5) % 4],
             (array['08:00','11:00','14:00','17:00'])[1 + (i / 5) % 4],
             'ベンチゴルフ倶楽部', 4, ${FEE}
      from generate_series(0, ${LESSONS - 1}) i
      join pros p on p.k = i % p.n`);
    await db.query('analyze');
    const lessonId = (i: number) => `PYL${String(i).padStart(23, '0')}`;
    const tokens = Array.from(
      { length: AMATEURS },
      (_, i) =>
        `Bearer ${token(`PYA${String(i).padStart(23, '0')}`, 'amature')}`,
    );
    const nextHold = fourPerLesson(tokens, LESSONS, (lesson) => ({
      scheduleId: lessonId(lesson),
    }));
    const url = `${origin}/api/payment/start`;
    await warmUp(url, nextHold);
    const pid = api.child.pid!;
    const closedMeter = cpuMeter(pid);
    const closed = await closedLoop(url, nextHold);
    const closedCpu = closedMeter.perRequest(closed.total);
    const pacedRun = await paced(url, RATE, nextHold);
    await new Promise((res) => setTimeout(res, 1_000));
    const [counts] = await db.query<{
      holds: number;
      intents: number;
      over: number;
    }>(
      `select (select count(*)::int from payments where status = 'pending') as holds,
              (select count(distinct payment_intent_id)::int from payments) as intents,
              (select count(*)::int from schedules where reserved_count > capacity) as over`,
    );

    // (b) Every hold's PaymentIntent succeeds at the fake; this process delivers the events.
    const pending = [...fake.state.paymentIntents.values()]
      .filter((pi) => pi.status === 'requires_payment_method')
      .slice(0, EVENTS);
    const events: Stripe.Event[] = [];
    for (const pi of pending) events.push((await fake.succeed(pi.id)).event);
    const sign = (e: Stripe.Event) => {
      const body = JSON.stringify(e, null, 2);
      return { body, signature: signPayload(body, fake.webhookSecret) };
    };
    const hook = `${origin}/api/payment/webhook`;
    const batchesBefore = await batches(origin);
    const hookMeter = cpuMeter(pid);
    const first = await postAll(hook, events.map(sign));
    const cpu = hookMeter.perRequest(events.length);
    const batchesAfter = await batches(origin);
    const [after] = await db.query<{ confirmed: number; mails: number }>(
      `select (select count(*)::int from payments where status = 'paid') as confirmed,
              (select count(*)::int from mail_outbox) as mails`,
    );
    const replayMeter = cpuMeter(pid);
    const again = await postAll(hook, events.map(sign));
    const replayCpu = replayMeter.perRequest(events.length);
    const [afterReplay] = await db.query<{
      confirmed: number;
      mails: number;
    }>(
      `select (select count(*)::int from payments where status = 'paid') as confirmed,
              (select count(*)::int from mail_outbox) as mails`,
    );
    return {
      closed,
      closedCpu,
      pacedRun,
      holds: counts!.holds,
      intents: counts!.intents,
      overCapacity: counts!.over,
      webhook: {
        events: events.length,
        perSecond: first.ok / first.seconds,
        ok: first.ok,
        failed: first.failed,
        confirmed: after!.confirmed,
        replayPerSecond: again.ok / again.seconds,
        changedByReplay:
          afterReplay!.confirmed -
          after!.confirmed +
          (afterReplay!.mails - after!.mails),
        cpu,
        replayCpu,
        perBatch:
          (batchesAfter.events - batchesBefore.events) /
          Math.max(1, batchesAfter.batches - batchesBefore.batches),
      },
    };
  } finally {
    await api?.stop();
    await fake.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const f = await run();
const row = (name: string, r: Load) =>
  `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ok ${r.ok}  non-2xx ${r.non2xx}  errors ${r.errors}`;
console.log('\n/payment/start on PostgreSQL, Stripe stand-in on the loopback');
console.log(row(`closed loop, ${CONNECTIONS} connections`, f.closed));
console.log(`  ${cpuLine(f.closedCpu)}`);
console.log(
  row(`paced ${RATE} req/s, ≤ ${CONNECTIONS} connections`, f.pacedRun),
);
console.log(
  `holds pending ${f.holds}, PaymentIntents ${f.intents}, lessons over capacity ${f.overCapacity}`,
);
const w = f.webhook;
console.log('\n/payment/webhook, payment_intent.succeeded, 50 at a time');
console.log(
  `${w.events} events: ${w.perSecond.toFixed(0)} events/s (ok ${w.ok}, failed ${w.failed}), payments paid ${w.confirmed}, ${w.perBatch.toFixed(1)} events a transaction`,
);
console.log(`  ${cpuLine(w.cpu)}`);
console.log(
  `the same events again: ${w.replayPerSecond.toFixed(0)} events/s, rows changed ${w.changedByReplay}`,
);
console.log(`  ${cpuLine(w.replayCpu)}`);
