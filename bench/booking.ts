/**
 * `npm run bench:booking` (also run at the end of `npm run bench`): figures,
 * not a test, for the durable mail outbox.
 *
 * (a) /api/schedule/reserve with its outbox write (two mails in the
 *     reservation's transaction), 50 connections for BENCH_SECONDS (10) after
 *     a 2-second warm-up, on a fresh PostgreSQL database with the demo seed,
 *     BENCH_AMATEURS (1,000) extra amateurs inserted in SQL and
 *     BENCH_LESSONS (5,000) capacity-4 lessons created through the API with
 *     the demo pros' tokens. Every request is a new reservation: lesson i mod
 *     L, by one of four amateurs of that lesson, so no request is refused
 *     while places last. The worker sends the mails to a loopback SMTP sink
 *     while the load runs. Twice: as fast as the server answers (autocannon;
 *     p99 is then mostly time waiting behind the other 49 connections), and at
 *     BENCH_RATE (100) requests a second evenly spaced (`paced`). Target: p99
 *     ≤ 30 ms. Also the CPU milliseconds per request of the API process and of
 *     PostgreSQL (every postgres process on the machine), from /proc.
 * (b) The worker drains 10,000 queued mails (BENCH_MAILS) written straight
 *     into mail_outbox (category `account`, so no member setting applies)
 *     while the server was stopped; the server then starts with SMTP_URL to
 *     the sink. Time until the sink has every mail and every row is `sent`,
 *     on PostgreSQL and on PGlite. Target: ≤ 60 s.
 *
 * The sink runs in this process (decoding nothing), the servers in child
 * processes; the load generator, the sink and the server share the machine.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newPglite } from '../apps/api/src/db/pglite.ts';
import { mailSink } from '../test-support/mail-sink.ts';
import {
  freePort,
  type ServerProcess,
} from '../test-support/server-process.ts';
import {
  CONNECTIONS,
  closedLoop,
  DURATION,
  database,
  demoLogin,
  fourPerLesson,
  paced,
  post,
  server,
  token,
  warmUp,
  type Load,
} from './support.ts';

const AMATEURS = Number(process.env.BENCH_AMATEURS ?? 1_000);
const LESSONS = Number(process.env.BENCH_LESSONS ?? 5_000);
const MAILS = Number(process.env.BENCH_MAILS ?? 10_000);
/** The offered load of the second reservation run, requests per second over all connections. */
const RATE = Number(process.env.BENCH_RATE ?? 100);
/** `reserve` runs the reservation part only. */
const ONLY = process.env.BENCH_ONLY;

/** The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold spaces). */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) / 100 : 0;
}

/**
 * CPU seconds of PostgreSQL on this machine: every live postgres process, plus
 * what the postmaster's finished children (closed connections) used.
 */
function postgresCpuSeconds(): number {
  const procs = new Map<string, string[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/comm`, 'utf8').startsWith('postgres'))
        continue;
    } catch {
      continue;
    }
    const f = statFields(name);
    if (f) procs.set(name, f);
  }
  let total = 0;
  for (const f of procs.values()) {
    total += Number(f[11]) + Number(f[12]);
    // f[1] is the parent: the postmaster's is not a postgres process.
    if (!procs.has(f[1]!)) total += Number(f[13]) + Number(f[14]);
  }
  return total / 100;
}

/** Waits (at most 2 minutes) until the worker has sent every queued mail; answers how many are left. */
async function mailsLeft(
  db: Awaited<ReturnType<typeof database>>,
  left = Infinity,
): Promise<number> {
  const since = performance.now();
  while (left > 0 && performance.now() - since < 120_000) {
    const [q] = await db.query<{ n: number }>(
      `select count(*)::int as n from mail_outbox where status in ('queued', 'sending')`,
    );
    left = q!.n;
    if (left > 0) await new Promise((res) => setTimeout(res, 200));
  }
  return left;
}

type ReserveFigures = {
  rps: number;
  /** CPU milliseconds per answered request, of the API process and of PostgreSQL. */
  cpuMs: { api: number; pg: number };
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  rows: number;
  reservations: number;
  /** Mails queued or being sent when the load stopped. */
  backlog: number;
  /** Seconds until the worker had sent them (NaN: not within 2 minutes). */
  catchUpS: number;
  /** Still queued after that. */
  left: number;
  mailsSent: number;
};

async function reservations(rate?: number): Promise<ReserveFigures> {
  const db = await database('proam_bookbench');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-bookbench-'));
  const sink = mailSink(await freePort(), { decode: false });
  await sink.start();
  let api: ServerProcess | undefined;
  try {
    api = await server({
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      SMTP_URL: sink.url,
    });
    const origin = api.origin;
    await db.query(`
      insert into users (id, type, email, password_hash, user_name)
      select 'BKA' || lpad(i::text, 23, '0'), 'amature', 'bka' || i || '@example.jp', 'x', 'ベンチ会員' || i
      from generate_series(0, ${AMATEURS - 1}) i`);
    const pros: string[] = [];
    for (let i = 1; i <= 5; i++)
      pros.push(await demoLogin(origin, `pro${i}@example.jp`));
    // Lessons of the demo pros, four a day each, from 2090 on: none overlaps.
    const lessons: string[] = new Array<string>(LESSONS);
    let next = 0;
    const slots = [
      ['06:00', '08:00'],
      ['09:00', '11:00'],
      ['12:00', '14:00'],
      ['15:00', '17:00'],
    ] as const;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < LESSONS; i = next++) {
          const pro = i % pros.length;
          const k = Math.floor(i / pros.length);
          const day = new Date(Date.UTC(2090, 0, 1 + Math.floor(k / 4)));
          const [startTime, endTime] = slots[k % 4]!;
          const r = await post(
            origin,
            '/schedule/create',
            {
              date: day.toISOString().slice(0, 10),
              startTime,
              endTime,
              place: 'ベンチゴルフ倶楽部',
              capacity: 4,
              fee: 10_000,
            },
            pros[pro]!,
          );
          if (r.status !== 'OK')
            throw new Error(`schedule/create: ${r.code ?? r.status}`);
          lessons[i] = (r.body as { id: string }).id;
        }
      }),
    );
    await db.query('analyze');
    const tokens = Array.from(
      { length: AMATEURS },
      (_, i) =>
        `Bearer ${token(`BKA${String(i).padStart(23, '0')}`, 'amature')}`,
    );
    const nextReservation = fourPerLesson(tokens, LESSONS, (lesson) => ({
      id: lessons[lesson],
    }));
    const url = `${origin}/api/schedule/reserve`;
    await warmUp(url, nextReservation);
    // The warm-up's mails are sent before the measured run, whose CPU figures are its own.
    await mailsLeft(db);
    const pid = api.child.pid!;
    const cpuBefore = { api: cpuSeconds(pid), pg: postgresCpuSeconds() };
    const r: Load = rate
      ? await paced(url, rate, nextReservation)
      : await closedLoop(url, nextReservation);
    // Answers still in flight when autocannon stopped land; then one snapshot.
    await new Promise((res) => setTimeout(res, 1_000));
    // Includes the worker's sending meanwhile: the cost of a reservation with its mails.
    const cpuMs = {
      api: ((cpuSeconds(pid) - cpuBefore.api) * 1000) / r.total,
      pg: ((postgresCpuSeconds() - cpuBefore.pg) * 1000) / r.total,
    };
    const [counts] = await db.query<{
      reservations: number;
      rows: number;
      backlog: number;
    }>(
      `select (select count(*)::int from reservations where user_id like 'BKA%') as reservations,
              (select count(*)::int from mail_outbox where subject like '%予約%') as rows,
              (select count(*)::int from mail_outbox where status in ('queued', 'sending')) as backlog`,
    );
    // How long the worker takes to send what the load queued (at most 2 minutes).
    const caughtUp = performance.now();
    const left = await mailsLeft(db, counts!.backlog);
    return {
      rps: r.rps,
      cpuMs,
      p50: r.p50,
      p99: r.p99,
      ok: r.ok,
      non2xx: r.non2xx,
      errors: r.errors,
      rows: counts!.rows,
      reservations: counts!.reservations,
      backlog: counts!.backlog,
      catchUpS: left === 0 ? (performance.now() - caughtUp) / 1000 : NaN,
      left,
      mailsSent: sink.count(),
    };
  } finally {
    await api?.stop();
    await sink.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** 10,000 queued account mails, one statement. */
const QUEUE = `
insert into mail_outbox (id, user_id, category, to_address, subject, body, status, attempts, next_attempt_at, created_at)
select 'BENCHMAIL' || lpad(i::text, 17, '0'), null, 'account', 'bench' || i || '@example.jp',
       '【ProAm Connect】ベンチ ' || i, 'ベンチメールの本文です。' || repeat('あ', 200) || i,
       'queued', 0, now(), now()
from generate_series(1, ${MAILS}) i`;

type DrainFigures = {
  engine: string;
  readyS: number;
  firstMailS: number;
  allReceivedS: number;
  allSentS: number;
  perSecond: number;
  received: number;
};

/**
 * Starts the server on a database holding MAILS queued mails and times the
 * drain from the spawn: first mail, all received by the sink, all rows sent.
 */
async function drain(
  engine: string,
  env: Record<string, string>,
  queue: () => Promise<string>,
): Promise<DrainFigures> {
  // First start: migrations and the seed; no mail server.
  await (await server(env)).stop();
  const adminId = await queue();
  const sink = mailSink(await freePort(), { decode: false });
  await sink.start();
  const t0 = performance.now();
  const api = await server({ ...env, SMTP_URL: sink.url });
  const readyS = (performance.now() - t0) / 1000;
  const auth = `Bearer ${token(adminId, 'admin')}`;
  let firstMailS = NaN;
  let allReceivedS = NaN;
  let allSentS = NaN;
  try {
    const deadline = t0 + 600_000;
    while (performance.now() < deadline) {
      const at = (performance.now() - t0) / 1000;
      if (Number.isNaN(firstMailS) && sink.count() > 0) firstMailS = at;
      if (Number.isNaN(allReceivedS) && sink.count() >= MAILS)
        allReceivedS = at;
      const s = await post(api.origin, '/admin/mailOutbox', {}, auth);
      const sent = (s.body as { sent?: number } | undefined)?.sent ?? 0;
      if (sent >= MAILS) {
        allSentS = (performance.now() - t0) / 1000;
        if (Number.isNaN(allReceivedS) && sink.count() >= MAILS)
          allReceivedS = allSentS;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      engine,
      readyS,
      firstMailS,
      allReceivedS,
      allSentS,
      perSecond: MAILS / (allSentS - firstMailS),
      received: sink.count(),
    };
  } finally {
    await api.stop();
    await sink.stop();
  }
}

async function drainPostgres(): Promise<DrainFigures> {
  const db = await database('proam_drainbench');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-drainbench-'));
  try {
    return await drain(
      'PostgreSQL',
      { DATA_DIR: dataDir, DATABASE_URL: db.url },
      async () => {
        await db.query(QUEUE);
        await db.query('analyze mail_outbox');
        const [a] = await db.query<{ id: string }>(
          `select id from users where email = 'admin@example.jp'`,
        );
        return a!.id;
      },
    );
  } finally {
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function drainPglite(): Promise<DrainFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-drainbench-'));
  try {
    return await drain('PGlite', { DATA_DIR: dataDir }, async () => {
      const db = newPglite(path.join(dataDir, 'pgdata'));
      try {
        await db.exec(QUEUE);
        const r = await db.query<{ id: string }>(
          `select id from users where email = 'admin@example.jp'`,
        );
        return r.rows[0]!.id;
      } finally {
        await db.close();
      }
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const f1 = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(1));
const f2 = (x: number) => x.toFixed(2);

async function main() {
  const runs = [
    { load: 'as fast as it answers', r: await reservations() },
    {
      load: `${RATE} req/s, evenly spaced`,
      r: await reservations(RATE),
    },
  ];
  console.log(
    `\n/api/schedule/reserve with the outbox write, PostgreSQL, ${CONNECTIONS} connections, ${DURATION} s (after a 2 s warm-up), ${AMATEURS} extra amateurs, ${LESSONS} capacity-4 lessons, the worker sending to a loopback sink meanwhile; first as fast as the server answers (each connection sends its next request when the last is answered: p99 is then mostly time in the queue), then at a fixed rate with evenly spaced arrivals (latency from each request's planned start)\n`,
  );
  console.log(
    '| load | req/s | p50 ms | p99 ms | CPU ms per request: API / PostgreSQL | target p99 ≤ 30 ms | 2xx | non-2xx / errors | reservations stored (warm-up included) | 予約 outbox rows | mails not yet sent when the load stopped | worker catch-up s | mails the sink received |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { load, r } of runs)
    console.log(
      `| ${load} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${f2(r.cpuMs.api)} / ${f2(r.cpuMs.pg)} | ${r.p99 <= 30 ? 'met' : 'NOT met'} | ${r.ok} | ${r.non2xx} / ${r.errors} | ${r.reservations} | ${r.rows} (${r.rows === 2 * r.reservations ? '2 per reservation' : 'NOT 2 per reservation'}) | ${r.backlog} | ${Number.isNaN(r.catchUpS) ? `not within 120 s (${r.left} left)` : f1(r.catchUpS)} | ${r.mailsSent} |`,
    );
  if (ONLY === 'reserve') return;

  const drains = [await drainPostgres(), await drainPglite()];
  console.log(
    `\nThe worker drains ${MAILS.toLocaleString('en')} queued mails to a loopback SMTP sink (seconds from the server's spawn)\n`,
  );
  console.log(
    '| engine | ready s | first mail s | all received s | all marked sent s | mails/s | target ≤ 60 s |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const d of drains)
    console.log(
      `| ${d.engine} | ${f1(d.readyS)} | ${f1(d.firstMailS)} | ${f1(d.allReceivedS)} | ${f1(d.allSentS)} | ${Math.round(d.perSecond)} | ${d.allSentS <= 60 ? 'met' : 'NOT met'} |`,
    );
}

await main();
