/**
 * `npm run bench`: figures, not a test. For a raw node:http hello server and
 * the API on PGlite and on PostgreSQL (each with 100 k extra members, one in
 * ten a pro, and 1 M lessons), it
 * prints req/s and p99 of public and authenticated reads, login throughput
 * (bounded by argon2) and what a login flood does to other reads, as ratios to
 * raw; then the landing page's first-load JS+CSS size. Servers run in child
 * processes so autocannon doesn't share their event loop, pinned to another
 * core than the load generator; each scenario runs BENCH_RUNS (3) times and
 * the table shows the medians, with the server's CPU time per 1,000 requests
 * (a cost that does not depend on how fast the client is). BENCH_ONLY (a
 * regular expression) keeps the scenarios whose names match, e.g.
 * `BENCH_ONLY=condition` for the pro search alone (raw hello always runs).
 * Two reference rows (`references`) show what the public reads' ratio is
 * made of: node:http and a bare Fastify route answering the same JSON.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import pg from 'pg';
import { newPglite } from '../apps/api/src/db/pglite.ts';
import {
  REPO_ROOT as ROOT,
  startServer,
  type ServerOptions,
} from '../test-support/server-process.ts';
import { cpuMeter, profiledEntry, profileFlags } from './support.ts';
import { addDays, japanDate } from '../apps/api/src/lib/time.ts';
import type { RouteWeight } from '../apps/web/e2e/page-weight.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLIENT = `Basic ${Buffer.from('web:proam-web-dev').toString('base64')}`;

/** Measured runs of each scenario; the table shows their medians. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Lessons added to the database (the pro search's date filter reads them). */
const LESSONS = Number(process.env.BENCH_LESSONS ?? 1_000_000);
const ONLY = process.env.BENCH_ONLY
  ? new RegExp(process.env.BENCH_ONLY)
  : undefined;
const wanted = (name: string) =>
  !ONLY || ONLY.test(name) || name.startsWith('raw');

type Result = {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  /** The server process's CPU time per 1,000 requests (median), ms; absent when two loads share it. */
  cpuPer1000?: number;
  /** Each run's req/s, to show the spread. */
  runs: number[];
};

/**
 * The load generator and the server on separate cores (`taskset`): sharing
 * two cores, raw hello measured the client as much as the server, so its
 * ratio moved from machine to machine. PostgreSQL's backends are
 * left free. No-op where taskset or a second core is missing.
 */
const PIN = availableParallelism() >= 2 && existsSync('/usr/bin/taskset');
const pin = (pid: number, core: number) => {
  if (PIN)
    spawnSync('taskset', ['-a', '-cp', String(core), String(pid)], {
      stdio: 'ignore',
    });
};
/** The server measured by `load`: the one started last. */
let serverPid = 0;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

type LoadOpts = {
  body?: string;
  /** A fresh body for every request (instead of `body`). */
  nextBody?: () => string;
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
  /** Another load runs against the same server at the same time: its CPU is not this one's. */
  shared?: boolean;
};
async function load(
  name: string,
  url: string,
  method: 'GET' | 'POST',
  o: LoadOpts = {},
): Promise<Result[]> {
  if (!wanted(name)) return [];
  const headers = {
    ...(o.body || o.nextBody ? { 'content-type': 'application/json' } : {}),
    ...o.headers,
  };
  const nextBody = o.nextBody;
  const requests = nextBody
    ? [
        {
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            body: nextBody(),
          }),
        },
      ]
    : undefined;
  await autocannon({
    url,
    method,
    body: o.body,
    headers,
    requests,
    connections: 10,
    duration: 2,
  });
  const runs: { rps: number; p99: number; errors: number; cpu: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const meter = cpuMeter(serverPid);
    const r = await autocannon({
      url,
      method,
      body: o.body,
      headers,
      requests,
      connections: o.connections ?? CONNECTIONS,
      duration: o.duration ?? DURATION,
    });
    runs.push({
      rps: r.requests.average,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
      cpu: meter.perRequest(Math.max(1, r.requests.total)).serverMs * 1000,
    });
  }
  return [
    {
      name,
      rps: median(runs.map((x) => x.rps)),
      p99: median(runs.map((x) => x.p99)),
      errors: runs.reduce((n, x) => n + x.errors, 0),
      ...(o.shared ? {} : { cpuPer1000: median(runs.map((x) => x.cpu)) }),
      runs: runs.map((x) => Math.round(x.rps)),
    },
  ];
}

/** Servers in child processes, so autocannon doesn't share their event loop; warnings reach the terminal. */
const benchServer = async (options: ServerOptions) => {
  const server = await startServer({
    logs: 'inherit',
    readyTimeoutMs: 120_000,
    ...profiledEntry(),
    ...options,
  });
  serverPid = server.child.pid!;
  pin(serverPid, 1);
  return server;
};

/** The baseline: node:http answering a small JSON body, nothing else. */
const rawHello = () =>
  benchServer({
    entry: {
      nodeArgs: [
        '-e',
        `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"hello":"world"}')}).listen(Number(process.env.PORT),'127.0.0.1')`,
      ],
    },
    readyPath: '/',
  });

/**
 * What the public reads' ratio is made of, measured beside them (item 1 of
 * issue 19): node:http answering the news list's own JSON with the API's own
 * headers (its ~2.5 KB; raw hello answers 17 bytes), then Fastify with its
 * JSON body parser answering the same, nothing else. The gap between these
 * rows and the API's is our own code per request; between hello and the
 * first, the bytes.
 */
type Answer = { body: string; headers: Record<string, string> };
/** Headers Node writes for each answer itself. */
const PER_RESPONSE = [
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
];
const referenceServer = (kind: 'node:http' | 'fastify', answer: Answer) =>
  benchServer({
    env: {
      BENCH_BODY: answer.body,
      BENCH_HEADERS: JSON.stringify(answer.headers),
    },
    entry: {
      nodeArgs: [
        ...profileFlags(),
        '-e',
        // Exits on the bench's SIGTERM, so that a CPU profile is written.
        `process.on('SIGTERM',()=>process.exit(0));const b=process.env.BENCH_BODY,h=JSON.parse(process.env.BENCH_HEADERS);` +
          (kind === 'node:http'
            ? // With its length, as Fastify and the API send it (not chunked).
              `h['content-length']=Buffer.byteLength(b);require('node:http').createServer((q,s)=>{q.resume();q.on('end',()=>{s.writeHead(200,h);s.end(b)})}).listen(Number(process.env.PORT),'127.0.0.1')`
            : `const a=require('fastify')();a.get('/',(q,s)=>s.send('ok'));a.post('/',(q,s)=>{s.headers(h);s.send(b)});a.listen({port:Number(process.env.PORT),host:'127.0.0.1'})`),
      ],
    },
    readyPath: '/',
  });

/** The reference rows, each answering the news list as the API sent it to its POST. */
async function references(answer: Answer): Promise<Result[]> {
  const out: Result[] = [];
  for (const kind of ['node:http', 'fastify'] as const) {
    const name = `reference: ${kind} answering the news list's JSON (${(Buffer.byteLength(answer.body) / 1024).toFixed(1)} KB)`;
    if (!wanted(name)) continue;
    const server = await referenceServer(kind, answer);
    try {
      out.push(
        ...(await load(name, `${server.origin}/`, 'POST', {
          body: '{"size":20}',
        })),
      );
    } finally {
      await server.stop();
    }
  }
  return out;
}

/** The news list's answer as the API sent it to the bench (the reference rows answer the same). */
let newsAnswer: Answer | undefined;

/**
 * 100 k members on top of the demo seed, one in ten a pro (49 in 50 of them
 * checked, as a running service's would be), with real-looking home courses
 * and specialties for the keyword search; then LESSONS lessons spread over
 * ten months around today, a third of the pros with one on any day, most of
 * them open.
 */
const POPULATE = `
insert into users (id, type, email, password_hash, user_name, area, lesson_fee, home_course, specialty, like_count, created_at, verified)
select 'BENCH' || lpad(i::text, 21, '0'),
       case when i % 10 = 0 then 'pro' else 'amature' end,
       'bench' || i || '@example.jp', 'x', 'ベンチ会員' || i,
       (array['東京都','大阪府','神奈川県','愛知県','福岡県','北海道','千葉県','兵庫県'])[1 + i % 8],
       case when i % 10 = 0 then 5000 + (i % 30) * 1000 end,
       case when i % 10 = 0 then (array['府中カントリークラブ','東京よみうりカントリークラブ','相模原ゴルフクラブ','鷹之台カンツリー倶楽部','霞ヶ関カンツリー倶楽部','我孫子ゴルフ倶楽部','小金井カントリー倶楽部','武蔵カントリークラブ'])[1 + (i / 10) % 8] end,
       case when i % 10 = 0 then (array['ドライバー','アプローチ','パター','アイアン','バンカー'])[1 + (i / 10) % 5] end,
       i % 97, now() - (i || ' minutes')::interval,
       i % 10 = 0 and i % 50 <> 0
from generate_series(1, ${MEMBERS}) i;
insert into schedules (id, pro_id, date, start_time, end_time, place, area, capacity, fee, status_round, reserved_count, created_at, updated_at)
select 'BSCH' || lpad(s::text, 22, '0'),
       'BENCH' || lpad(((s % (${MEMBERS} / 10)) * 10 + 10)::text, 21, '0'),
       to_char(current_date + ((s / (${MEMBERS} / 10)) * 3 + (s % (${MEMBERS} / 10)) % 3 - 150) % 300, 'YYYY-MM-DD'),
       '09:00', '12:00', 'ベンチゴルフ倶楽部', '東京都', 4, 8000,
       case when s % 5 = 0 then 'full' when s % 17 = 0 then 'cancelled' else 'open' end,
       case when s % 5 = 0 then 4 else 0 end, now(), now()
from generate_series(0, ${LESSONS} - 1) s;
analyze`;

async function apiScenarios(
  label: string,
  env: Record<string, string>,
  populate: () => Promise<void>,
): Promise<Result[]> {
  // First start migrates and seeds; stop, add the members, start again.
  await (await benchServer({ env })).stop();
  await populate();
  const server = await benchServer({ env });
  const base = `${server.origin}/api`;
  const out: Result[] = [];
  try {
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { authorization: CLIENT, 'content-type': 'application/json' },
      body: JSON.stringify({
        mail: 'ama1@example.jp',
        password: 'proam-demo-2026',
      }),
    });
    const { body } = (await login.json()) as {
      body: { token: { accessToken: string } };
    };
    const auth = { authorization: `Bearer ${body.token.accessToken}` };
    const pros = (await (
      await fetch(`${base}/users/pro/all`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"size":1}',
      })
    ).json()) as { body: { id: string }[] };
    const proId = pros.body[0]!.id;

    // The public site's reads (README, Reliability and performance): the news list, one item, the competitions.
    out.push(
      ...(await load(
        `/api/news/readAll (${label})`,
        `${base}/news/readAll`,
        'POST',
        { body: '{"size":20}' },
      )),
    );
    if (!newsAnswer) {
      const res = await fetch(`${base}/news/readAll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"size":20}',
      });
      if (!res.ok) throw new Error(`/news/readAll answered ${res.status}`);
      newsAnswer = {
        body: await res.text(),
        headers: Object.fromEntries(
          [...res.headers].filter(([name]) => !PER_RESPONSE.includes(name)),
        ),
      };
    }
    const newsList = (await (
      await fetch(`${base}/news/readAll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"size":1}',
      })
    ).json()) as { body: { id: string }[] };
    out.push(
      ...(await load(`/api/news/read (${label})`, `${base}/news/read`, 'POST', {
        body: JSON.stringify({ id: newsList.body[0]!.id }),
      })),
    );
    out.push(
      ...(await load(
        `/api/competition/read (${label})`,
        `${base}/competition/read`,
        'POST',
        { body: '{}' },
      )),
    );
    out.push(
      ...(await load(
        `/api/user/read (${label}, ${MEMBERS / 1000} k members)`,
        `${base}/user/read`,
        'POST',
        { body: JSON.stringify({ id: proId }), headers: auth },
      )),
    );
    // Any of the 100 k, so mostly misses of the 10 k-row member cache: the database path.
    const anyMember = () =>
      `{"id":"BENCH${String(1 + Math.floor(Math.random() * MEMBERS)).padStart(21, '0')}"}`;
    out.push(
      ...(await load(
        `/api/user/read, a random member each time (${label})`,
        `${base}/user/read`,
        'POST',
        { nextBody: anyMember, headers: auth },
      )),
    );
    // The pro search (20 a page) with each filter and each sort, over 100 k
    // members and 1 M lessons: a common and a rare keyword found inside words.
    const lessonDay = addDays(japanDate(), 8);
    for (const [what, q] of [
      ['no filter, newest', { sort: 'new' }],
      ['area, most liked', { area: '東京都', sort: 'likes' }],
      ['fee range, cheapest', { feeMin: 10000, feeMax: 15000, sort: 'fee' }],
      ['open lesson on a date, most liked', { date: lessonDay, sort: 'likes' }],
      [
        'keyword 「府中」 (one pro in eight), best rated',
        { keyword: '府中', sort: 'rating' },
      ],
      [
        'keyword 「アプローチ」, newest',
        { keyword: 'アプローチ', sort: 'new' },
      ],
      [
        "keyword of one pro's name, newest",
        { keyword: 'ベンチ会員12340', sort: 'new' },
      ],
    ] as const)
      out.push(
        ...(await load(
          `/api/users/pro/condition: ${what} (${label})`,
          `${base}/users/pro/condition`,
          'POST',
          { body: JSON.stringify({ ...q, size: 20 }), headers: auth },
        )),
      );
    // The searches above repeat, so after the first they come from the
    // shared cache of search pages; a pro's name picked at random is a new
    // search nearly every time: the database path.
    const anyProName = () =>
      JSON.stringify({
        keyword: `ベンチ会員${10 * (1 + Math.floor((Math.random() * MEMBERS) / 10))}`,
        sort: 'new',
        size: 20,
      });
    out.push(
      ...(await load(
        `/api/users/pro/condition: a random pro's name each time, mostly cache misses (${label})`,
        `${base}/users/pro/condition`,
        'POST',
        { nextBody: anyProName, headers: auth },
      )),
    );
    const loginBody = JSON.stringify({
      mail: 'pro1@example.jp',
      password: 'proam-demo-2026',
    });
    out.push(
      ...(await load(
        `/api/auth/login (${label})`,
        `${base}/auth/login`,
        'POST',
        {
          body: loginBody,
          headers: { authorization: CLIENT },
        },
      )),
    );
    const [, [during]] = await Promise.all([
      load(`login flood`, `${base}/auth/login`, 'POST', {
        body: loginBody,
        headers: { authorization: CLIENT },
        shared: true,
      }),
      load(
        `/api/user/read during a login flood (${label}, 10 conn.)`,
        `${base}/user/read`,
        'POST',
        { body: JSON.stringify({ id: proId }), headers: auth, connections: 10 },
      ),
    ]);
    if (during) out.push(during);
  } finally {
    await server.stop();
  }
  return out;
}

/**
 * The landing page's first load. `staticKb`: gzip of the JS and CSS that
 * index.html references. `browserKb`: what a first-time visitor's Chromium
 * actually fetched (JS+CSS, bytes on the wire, until the network is idle),
 * which is the budgeted figure: scripts may import more after the first
 * paint. The service worker's precache, fetched in the background, apart.
 */
async function landingBytes(): Promise<{
  files: number;
  staticKb: number;
  browserKb: number;
  browserFiles: number;
  precache: { entries: number; kb: number; rawKb: number };
  routes: RouteWeight[];
}> {
  const dist = path.join(ROOT, 'apps/web/dist');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1]!,
  );
  const unique = [...new Set(refs)];
  const total = unique.reduce(
    (n, ref) => n + gzipSync(readFileSync(path.join(dist, ref))).length,
    0,
  );
  const { launchBrowser } = await import('../apps/web/e2e/browser.ts');
  const { startServer: startWebServer } =
    await import('../apps/web/e2e/server.ts');
  const { measureLanding, measureRoutes, precacheKb } =
    await import('../apps/web/e2e/page-weight.ts');
  const { loginThroughForm } = await import('../apps/web/e2e/helpers.ts');
  const server = await startWebServer();
  try {
    const browser = await launchBrowser();
    try {
      const weight = await measureLanding(browser, server.baseUrl);
      return {
        files: unique.length,
        staticKb: Math.round((total / 1024) * 10) / 10,
        browserKb: weight.jsCssKb,
        browserFiles: weight.files.length,
        precache: precacheKb(dist),
        routes: await measureRoutes(
          browser,
          server.baseUrl,
          ['ama1@example.jp', 'pro1@example.jp'],
          (page, baseUrl, mail) => loginThroughForm(page, baseUrl, mail),
        ),
      };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

async function main() {
  pin(process.pid, 0);
  const results: Result[] = [];
  const raw = await rawHello();
  results.push(...(await load('raw node:http hello', `${raw.origin}/`, 'GET')));
  await raw.stop();

  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-bench-'));
  try {
    results.push(
      ...(await apiScenarios('PGlite', { DATA_DIR: dataDir }, async () => {
        const db = newPglite(path.join(dataDir, 'pgdata'));
        await db.exec(POPULATE);
        await db.close();
      })),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const dbName = `proam_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    const dataDir2 = mkdtempSync(path.join(tmpdir(), 'proam-bench-'));
    try {
      results.push(
        ...(await apiScenarios(
          'PostgreSQL',
          { DATA_DIR: dataDir2, DATABASE_URL: url.toString() },
          async () => {
            const c = new pg.Client({ connectionString: url.toString() });
            await c.connect();
            await c.query(POPULATE);
            await c.end();
          },
        )),
      );
    } finally {
      rmSync(dataDir2, { recursive: true, force: true });
      await admin.query(`drop database if exists ${dbName} with (force)`);
    }
  } catch (e) {
    console.warn(
      `PostgreSQL part skipped (${PG_URL}): ${(e as Error).message}`,
    );
  } finally {
    await admin.end().catch(() => undefined);
  }

  if (newsAnswer) results.splice(1, 0, ...(await references(newsAnswer)));

  const base = results[0]!.rps;
  console.log(
    `\nautocannon: ${CONNECTIONS} connections unless noted, ${DURATION} s a run, median of ${RUNS} runs, loopback; ${PIN ? 'load generator on core 0, server on core 1 (taskset)' : 'not pinned (no taskset or one core)'}\n`,
  );
  console.log(
    '| scenario | req/s (median) | runs | p99 ms | non-2xx/errors | ratio to raw | server CPU ms / 1,000 req |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.name} | ${Math.round(r.rps)} | ${r.runs.join(' / ')} | ${r.p99} | ${r.errors} | ${(r.rps / base).toFixed(2)} | ${r.cpuPer1000 === undefined ? '—' : r.cpuPer1000.toFixed(0)} |`,
    );
  if (!existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    console.log('\nlanding size skipped: no web build (npm run build)');
    return;
  }
  const landing = await landingBytes();
  console.log(
    `\nlanding first-load JS+CSS, measured in Chromium: ${landing.browserKb} KB transferred in ${landing.browserFiles} files (budget 100 KB)`,
  );
  console.log(
    `  referenced by index.html: ${landing.staticKb} KB gzip in ${landing.files} files`,
  );
  console.log(
    `  service worker precache (background, not the page's): ${landing.precache.kb} KB brotli (${landing.precache.rawKb} KB raw) in ${landing.precache.entries} entries`,
  );
  console.log(
    '\nevery other page, first-load JS+CSS in KB (budget: apps/web/e2e/page-weight.ts)\n\n| page | who | KB | budget |\n|---|---|---|---|',
  );
  for (const r of landing.routes)
    console.log(`| #/${r.route} | ${r.who} | ${r.jsCssKb} | ${r.budgetKb} |`);
}

await main();
