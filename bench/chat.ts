/**
 * Chat delivery over two API instances on one PostgreSQL database, and
 * /schedule/getByDate with 10 k and 1 M schedules. Figures, not a test.
 * `npm run bench:chat` (also run at the end of `npm run bench`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import WebSocket from 'ws';
import {
  startServer,
  type ServerProcess,
} from '../test-support/server-process.ts';
import { profiledEntry } from './support.ts';

const PG_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET = 'bench-secret-bench-secret-bench-secret-0001';
/** Lessons, each with a pro and PER_LESSON − 1 amateurs: 1,000 sockets by default; the 10,000-socket run (README) is `BENCH_CHAT_LESSONS=2000 BENCH_CHAT_PER_LESSON=5 BENCH_RATE=500 BENCH_MESSAGES=10000`. */
const LESSONS = Number(process.env.BENCH_CHAT_LESSONS ?? 250);
const PER_LESSON = Number(process.env.BENCH_CHAT_PER_LESSON ?? 4);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 100); // messages per second
// Sent first at the same rate and not measured: connection pools and JIT warm up, as autocannon's warm-up does.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);

const sign = createSigner({
  key: SECRET,
  algorithm: 'HS256',
  expiresIn: 900_000,
});
const token = (id: string, typ: string) =>
  sign({ sub: id, typ, kind: 'access' });

/**
 * An API instance in a child process (no demo seed; the default SHED_DB_QUEUE,
 * so the 1,000 sockets connecting at once also check that a burst of connects
 * is admitted rather than shed); warnings reach the terminal.
 */
const server = (env: Record<string, string>) =>
  startServer({
    logs: 'inherit',
    ...profiledEntry(),
    env: {
      JWT_SECRET: SECRET,
      SEED_DEMO: 'false',
      SHED_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
  });
/** An error as one line: its message, a pg error's code, and its cause (fetch hides the network error there). */
const describeError = (err: unknown): string =>
  err instanceof Error
    ? `${err.message}${'code' in err && err.code ? ` (${String(err.code)})` : ''}${err.cause ? `: ${describeError(err.cause)}` : ''}`
    : String(err);
/**
 * A pg client whose connection errors are reported, not thrown: the
 * database is dropped with (force) at the end, which ends its sessions, and an
 * 'error' event without a handler would crash the bench and hide the first
 * error.
 */
const pgClient = (connectionString: string, name: string) => {
  const c = new pg.Client({ connectionString });
  c.on('error', (err) =>
    console.warn(`(${name} connection: ${describeError(err)})`),
  );
  return c;
};
/** Runs one clean-up step; its failure is reported and the next step still runs. */
const cleanUp = async (what: string, step: () => Promise<unknown>) => {
  try {
    await step();
  } catch (err) {
    console.warn(`(clean-up, ${what}: ${describeError(err)})`);
  }
};

/**
 * Opens a socket; resolves with it once open, rejects with the server's
 * answer (status, Retry-After and body) if the upgrade is refused.
 */
const openSocket = (url: string, protocols: string[]) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () =>
        reject(
          new Error(
            `upgrade refused: HTTP ${res.statusCode}${res.headers['retry-after'] ? ` (Retry-After ${res.headers['retry-after']})` : ''} ${body.slice(0, 200)}`,
          ),
        ),
      );
      res.on('error', reject);
    });
    ws.once('error', reject);
  });

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
    : NaN;
};

async function main() {
  const admin = pgClient(PG_URL, 'admin');
  await admin.connect();
  const dbName = `proam_chatbench_${process.pid}`;
  await admin.query(`create database ${dbName}`);
  const url = new URL(PG_URL);
  url.pathname = `/${dbName}`;
  const dirs = [
    mkdtempSync(path.join(tmpdir(), 'proam-cb-')),
    mkdtempSync(path.join(tmpdir(), 'proam-cb-')),
  ];
  const servers: ServerProcess[] = [];
  const sockets: WebSocket[] = [];
  /** Ended in the clean-up, whatever happened before. */
  let benchDb: pg.Client | undefined;
  try {
    // The first start migrates, so the second waits for it.
    for (const dir of dirs)
      servers.push(
        await server({ DATA_DIR: dir, DATABASE_URL: url.toString() }),
      );
    /** The instance for the i-th socket or post: they alternate. */
    const origin = (i: number) => servers[Math.abs(i) % 2]!.origin;

    const db = pgClient(url.toString(), 'bench');
    benchDb = db;
    await db.connect();
    await db.query(`
      insert into users (id, type, email, password_hash, user_name)
      select 'CB' || lpad(i::text, 24, '0'), case when i % ${PER_LESSON} = 0 then 'pro' else 'amature' end, 'cb' || i || '@example.jp', 'x', '会員' || i
      from generate_series(0, ${LESSONS * PER_LESSON - 1}) i;
      insert into schedules (id, pro_id, date, start_time, end_time, place, capacity, fee, status_round, reserved_count)
      select 'CL' || lpad(l::text, 24, '0'), 'CB' || lpad((l * ${PER_LESSON})::text, 24, '0'), '2099-01-01', '09:00', '12:00', 'ベンチCC', 4, 10000, 'open', ${PER_LESSON - 1}
      from generate_series(0, ${LESSONS - 1}) l;
      insert into reservations (schedule_id, user_id)
      select 'CL' || lpad(l::text, 24, '0'), 'CB' || lpad((l * ${PER_LESSON} + k)::text, 24, '0')
      from generate_series(0, ${LESSONS - 1}) l, generate_series(1, ${PER_LESSON - 1}) k;
      -- Statistics, as a running database has: autovacuum would take up to a minute to gather them, and
      -- until then the planner guesses for the rows just written.
      analyze users, schedules, reservations;`);

    // 1,000 sockets at once, alternating between the two instances: a reconnect storm.
    const received = new Map<string, Map<string, number>>(); // sort_key → userId → arrival time
    const arrivals: { key: string; user: string; at: number }[] = [];
    const ids = Array.from(
      { length: LESSONS * PER_LESSON },
      (_, i) => `CB${String(i).padStart(24, '0')}`,
    );
    const connectStart = performance.now();
    const opened = await Promise.allSettled(
      ids.map((id, i) =>
        openSocket(`${origin(i).replace(/^http/, 'ws')}/api/ws`, [
          'proam',
          `bearer.${token(id, i % PER_LESSON === 0 ? 'pro' : 'amature')}`,
        ]).then((ws) => {
          sockets.push(ws);
          ws.on('message', (data) => {
            const e = JSON.parse(String(data)) as {
              type: string;
              body: { sort_key?: string };
            };
            if (e.type !== 'message' || !e.body.sort_key) return;
            const per =
              received.get(e.body.sort_key) ?? new Map<string, number>();
            per.set(id, (per.get(id) ?? 0) + 1);
            received.set(e.body.sort_key, per);
            arrivals.push({
              key: e.body.sort_key,
              user: id,
              at: performance.now(),
            });
          });
        }),
      ),
    );
    const connectMs = performance.now() - connectStart;
    const refused = opened.filter((o) => o.status === 'rejected');
    if (refused.length > 0)
      throw new Error(
        `${refused.length} of ${ids.length} sockets did not open; the first: ${describeError(refused[0]!.reason)}`,
      );
    console.log(
      `\n${sockets.length} sockets opened at once over 2 instances in ${connectMs.toFixed(0)} ms`,
    );

    // Pros post through alternating instances at a fixed rate; every participant but the sender should get it once.
    const sentAt = new Map<string, { at: number; lesson: number }>();
    let failedSends = 0;
    /** The failed sends by answer code, so a bench run says why. */
    const failedCodes = new Map<string, number>();
    const t0 = performance.now();
    /** How long each measured post took to answer, by the second it was sent in. */
    const answeredBySecond = new Map<number, number[]>();
    // The bench's own pauses (its 10,000 sockets' garbage), by the second they
    // began in: a delivery is timed on arrival here, so a pause of this process
    // reads as a late delivery.
    const clientPauses: { second: number; ms: number }[] = [];
    const gcWatch = new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.duration > 20)
          clientPauses.push({
            second: Math.floor((e.startTime - t0) / 1000 - WARMUP / RATE),
            ms: e.duration,
          });
    });
    gcWatch.observe({ entryTypes: ['gc'] });
    // The bench's own event-loop lag, the worst by second: a delivery is timed
    // when this process gets to it, so a loop busy with 10,000 sockets reads
    // as late deliveries (and late answers to the posts) whatever the servers do.
    const clientLag = new Map<number, number>();
    let lastTick = performance.now();
    const lagWatch = setInterval(() => {
      const now = performance.now();
      const second = Math.floor((now - t0) / 1000 - WARMUP / RATE);
      clientLag.set(
        second,
        Math.max(clientLag.get(second) ?? 0, now - lastTick - 20),
      );
      lastTick = now;
    }, 20);
    // Never what keeps the bench alive after a failure.
    lagWatch.unref();
    const posts: Promise<void>[] = [];
    for (let n = -WARMUP; n < MESSAGES; n++) {
      const due = t0 + ((n + WARMUP) * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const lesson = (n + WARMUP) % LESSONS;
      const pro = ids[lesson * PER_LESSON]!;
      const measured = n >= 0;
      const start = performance.now();
      posts.push(
        fetch(`${origin(n)}/api/roundLesson/message`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token(pro, 'pro')}`,
          },
          body: JSON.stringify({
            partitionKey: `CL${String(lesson).padStart(24, '0')}`,
            msg: `ベンチ ${n}`,
            sender: pro,
          }),
        })
          .then(
            (r) =>
              r.json() as Promise<{
                status: string;
                code?: string;
                body?: { sort_key: string };
              }>,
          )
          .then((j) => {
            if (!j.body) {
              failedSends++;
              const code = j.code ?? j.status;
              failedCodes.set(code, (failedCodes.get(code) ?? 0) + 1);
            } else if (measured) {
              sentAt.set(j.body.sort_key, { at: start, lesson });
              const second = Math.floor((start - t0) / 1000 - WARMUP / RATE);
              const times = answeredBySecond.get(second) ?? [];
              times.push(performance.now() - start);
              answeredBySecond.set(second, times);
            }
          }),
      );
    }
    await Promise.all(posts);
    const sendSeconds = (performance.now() - t0) / 1000 - WARMUP / RATE;
    await new Promise((r) => setTimeout(r, 2000));
    clearInterval(lagWatch);

    const latencies: number[] = [];
    let lost = 0;
    let duplicated = 0;
    for (const [key, { lesson }] of sentAt) {
      const per = received.get(key) ?? new Map<string, number>();
      for (let k = 0; k < PER_LESSON; k++) {
        const user = ids[lesson * PER_LESSON + k]!;
        const n = per.get(user) ?? 0;
        if (n === 0) lost++;
        if (n > 1) duplicated += n - 1;
      }
    }
    /** Deliveries later than 50 ms by the second they were sent in: a stall shows as a burst. */
    const lateBySecond = new Map<number, number>();
    for (const a of arrivals) {
      const s = sentAt.get(a.key);
      if (!s) continue;
      latencies.push(a.at - s.at);
      if (a.at - s.at > 50) {
        const second = Math.floor((s.at - t0) / 1000 - WARMUP / RATE);
        lateBySecond.set(second, (lateBySecond.get(second) ?? 0) + 1);
      }
    }
    const socketCount = sockets.length;
    for (const ws of sockets) ws.close();
    sockets.length = 0;

    // getByDate with 10 k, then 1 M schedules in the table.
    const one = ids[0]!;
    const auth = {
      authorization: `Bearer ${token(one, 'pro')}`,
      'content-type': 'application/json',
    };
    const body = JSON.stringify({ userId: one, date: '2099-01-01' });
    const measure = async () =>
      (
        await autocannon({
          url: `${origin(0)}/api/schedule/getByDate`,
          method: 'POST',
          headers: auth,
          body,
          connections: 10,
          duration: 5,
        })
      ).latency.p50;
    const fill = async (total: number) => {
      const { rows } = await db.query<{ n: string }>(
        'select count(*) as n from schedules',
      );
      const have = Number(rows[0]!.n);
      await db.query(`
        insert into schedules (id, pro_id, date, start_time, end_time, place, capacity, fee)
        select 'FILL' || lpad(i::text, 22, '0'), 'CB' || lpad(((i % ${LESSONS}) * ${PER_LESSON})::text, 24, '0'),
               to_char(date '2027-01-01' + (i / ${LESSONS}) % 3650, 'YYYY-MM-DD'), '09:00', '12:00', 'ベンチCC', 4, 10000
        from generate_series(${have}, ${total - 1}) i`);
      await db.query('analyze schedules');
    };
    await fill(10_000);
    const p50small = await measure();
    await fill(1_000_000);
    const p50big = await measure();

    console.log(
      `\nchat over 2 API instances on PostgreSQL: ${socketCount} sockets, ${LESSONS} lessons, ${sentAt.size} messages at ${RATE}/s requested (after ${WARMUP} warm-up messages, not measured), sent in ${sendSeconds.toFixed(1)} s (${(sentAt.size / sendSeconds).toFixed(0)}/s held)`,
    );
    console.log(
      `failed sends: ${failedSends}${failedSends ? ` (${[...failedCodes].map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}`,
    );
    console.log(`| deliveries | p50 ms | p99 ms | lost | duplicated |`);
    console.log(`|---|---|---|---|---|`);
    console.log(
      `| ${latencies.length} | ${pct(latencies, 50).toFixed(1)} | ${pct(latencies, 99).toFixed(1)} | ${lost} | ${duplicated} |`,
    );
    console.log(
      `deliveries later than 50 ms by second of sending (the posts' own p99 answer time that second; the bench's worst event-loop lag that second or the next): ${[...lateBySecond].map(([sec, n]) => `${sec}: ${n} (${pct(answeredBySecond.get(sec) ?? [], 99).toFixed(0)} ms; lag ${Math.max(clientLag.get(sec) ?? 0, clientLag.get(sec + 1) ?? 0).toFixed(0)} ms)`).join(', ') || 'none'}`,
    );
    const lags = [...clientLag].filter(([sec]) => sec >= 0);
    console.log(
      `the bench's own event-loop lag, worst by second (ms): ${lags.map(([sec, ms]) => `${sec}: ${ms.toFixed(0)}`).join(', ')}`,
    );
    gcWatch.disconnect();
    console.log(
      `the bench's own garbage collections over 20 ms (second: ms): ${clientPauses.map((p) => `${p.second}: ${p.ms.toFixed(0)}`).join(', ') || 'none'}`,
    );
    // Each instance's memory with its sockets open (Linux /proc): now and its peak.
    for (const [i, srv] of servers.entries()) {
      const status = await readFile(
        `/proc/${srv.child.pid}/status`,
        'utf8',
      ).catch(() => '');
      const kb = (field: string) =>
        Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
      console.log(
        `instance ${i + 1}: RSS ${(kb('VmRSS') / 1024).toFixed(0)} MB, peak ${(kb('VmHWM') / 1024).toFixed(0)} MB`,
      );
    }
    console.log(
      `\n/schedule/getByDate p50: ${p50small} ms with 10 k schedules, ${p50big} ms with 1 M (ratio ${(p50big / Math.max(p50small, 1)).toFixed(2)})`,
    );
  } catch (err) {
    // Printed before the clean-up, which may fail in its turn.
    console.error(`\nchat bench failed: ${describeError(err)}`);
    throw err;
  } finally {
    for (const ws of sockets) ws.terminate();
    await cleanUp('bench connection', async () => benchDb?.end());
    await cleanUp('servers', () => Promise.all(servers.map((s) => s.stop())));
    await cleanUp('database', () =>
      admin.query(`drop database if exists ${dbName} with (force)`),
    );
    await cleanUp('admin connection', () => admin.end());
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
