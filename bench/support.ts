/**
 * What the benchmarks share: a server in a child process with a known JWT
 * secret (so a bench signs members' tokens itself), API calls, a fresh
 * PostgreSQL database, and the two ways of loading a server (closed-loop
 * autocannon, and `paced`, an evenly spaced open-loop rate).
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import {
  SERVER_DIST,
  SERVER_NODE_FLAGS,
  startServer,
  type ServerOptions,
} from '../test-support/server-process.ts';

export const PG_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = 50;
export const CLIENT = `Basic ${Buffer.from('web:proam-web-dev').toString('base64')}`;
const SECRET = 'bench-secret-bench-secret-bench-secret-0002';

const sign = createSigner({
  key: SECRET,
  algorithm: 'HS256',
  expiresIn: 3_600_000,
});
/** An access token for member `id` of type `typ`, as the server would issue it. */
export const token = (id: string, typ: string) =>
  sign({ sub: id, typ, kind: 'access' });

/** Where the server writes a CPU profile (`BENCH_CPU_PROF=<dir>`), for finding where a request's time goes. */
/** With a profile, the server runs as its modules (SERVER_DIST), so each function is named under its own file. */
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

/** Node's flags for writing a CPU profile at exit, when `BENCH_CPU_PROF` asks for one. */
export const profileFlags = (): string[] =>
  PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];

/** The entry of a server that writes a CPU profile, when `BENCH_CPU_PROF` asks for one. */
export const profiledEntry = (): Pick<ServerOptions, 'entry'> =>
  PROFILE_DIR
    ? {
        entry: {
          nodeArgs: [...SERVER_NODE_FLAGS, ...profileFlags(), SERVER_DIST],
        },
      }
    : {};

/** A server in a child process; warnings reach the terminal. */
export const server = (
  env: Record<string, string>,
  options: ServerOptions = {},
) =>
  startServer({
    logs: 'inherit',
    readyTimeoutMs: 120_000,
    ...profiledEntry(),
    ...options,
    env: { JWT_SECRET: SECRET, WEB_DIST: '/nonexistent', ...env },
  });

export async function post(
  origin: string,
  apiPath: string,
  body: unknown,
  auth: string,
): Promise<{ status: string; code?: string; body?: unknown }> {
  const res = await fetch(`${origin}/api${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify(body),
  });
  return (await res.json()) as {
    status: string;
    code?: string;
    body?: unknown;
  };
}

/** A demo member's `Bearer …` header, through /auth/login. */
export async function demoLogin(origin: string, mail: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { authorization: CLIENT, 'content-type': 'application/json' },
    body: JSON.stringify({ mail, password: 'proam-demo-2026' }),
  });
  const j = (await res.json()) as { body: { token: { accessToken: string } } };
  return `Bearer ${j.body.token.accessToken}`;
}

/** What a load run measured. */
export type Load = {
  total: number;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
};

export const fromAutocannon = (r: autocannon.Result): Load => ({
  total: r.requests.total,
  rps: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  ok: r['2xx'],
  non2xx: r.non2xx,
  errors: r.errors,
});

/** One request of a load: what `next` gives for the n-th request. */
export type NextRequest = () => {
  headers: Record<string, string>;
  body: string;
};

/**
 * Request n books lesson n mod `lessons`, by the (n div `lessons`)-th of four
 * amateurs of that lesson (so no amateur books one lesson twice), with the
 * JSON `body` for that lesson; `tokens` are the amateurs' Authorization values.
 */
export function fourPerLesson(
  tokens: string[],
  lessons: number,
  body: (lesson: number) => unknown,
): NextRequest {
  let n = 0;
  return () => {
    const i = n++;
    const lesson = i % lessons;
    const amateur = (lesson * 4 + Math.floor(i / lessons)) % tokens.length;
    return {
      headers: {
        'content-type': 'application/json',
        authorization: tokens[amateur]!,
      },
      body: JSON.stringify(body(lesson)),
    };
  };
}

/**
 * A closed-loop autocannon load of POSTs to `url`, each request's headers and
 * body taken from `next` (as `paced` does), so both loads send the same
 * sequence. A short run with few connections serves as the warm-up.
 */
export async function closedLoop(
  url: string,
  next: NextRequest,
  { connections = CONNECTIONS, duration = DURATION } = {},
): Promise<Load> {
  const requests = [
    {
      setupRequest: (req: autocannon.Request) => {
        const { headers, body } = next();
        return { ...req, headers: { ...req.headers, ...headers }, body };
      },
    },
  ];
  return fromAutocannon(
    await autocannon({ url, method: 'POST', requests, connections, duration }),
  );
}

/** The warm-up before a measured run: connection pools and JIT warm up. */
export const warmUp = (url: string, next: NextRequest) =>
  closedLoop(url, next, { connections: 10, duration: 2 });

/**
 * An open-loop load: `rate` requests a second, evenly spaced, for DURATION
 * seconds, over at most CONNECTIONS keep-alive connections. Each latency runs
 * from the request's planned start, so time spent waiting for a free
 * connection counts (no coordinated omission). autocannon's `overallRate`
 * sends each second's requests in a burst, which measures the burst instead.
 */
export async function paced(
  url: string,
  rate: number,
  next: NextRequest,
): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const count = Math.round(rate * DURATION);
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const start = performance.now();
  const one = (planned: number) =>
    new Promise<void>((resolve) => {
      const { headers, body } = next();
      const req = http.request(
        url,
        { method: 'POST', agent, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - planned);
            if (res.statusCode! >= 200 && res.statusCode! < 300) ok++;
            else non2xx++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const planned = start + (i * 1000) / rate;
    const wait = planned - performance.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    inFlight.push(one(planned));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(
      latencies[
        Math.min(latencies.length - 1, Math.floor(q * latencies.length))
      ] ?? NaN,
    );
  return {
    total: count,
    rps: count / ((performance.now() - start) / 1000),
    p50: at(0.5),
    p99: at(0.99),
    ok,
    non2xx,
    errors,
  };
}

/** A fresh PostgreSQL database, dropped by `drop()`. */
export async function database(prefix: string) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      try {
        return (await c.query<T>(sql)).rows;
      } finally {
        await c.end();
      }
    },
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const CLOCK_TICKS = 100;

/** CPU seconds used by every PostgreSQL process of this machine (its backends do the queries). */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'postgres') total += cpuSecondsOf(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * CPU time a phase costs, whatever else the machine is doing: the API
 * server's process and PostgreSQL's, in milliseconds per request. Unlike
 * throughput and latency, it does not move when the load generator (or
 * anything else) competes for the same two cores.
 */
export function cpuMeter(serverPid: number) {
  const ownSeconds = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const take = () => ({
    server: cpuSecondsOf(serverPid),
    postgres: postgresCpuSeconds(),
    // The bench's own process: the load generator, and the Stripe stand-in where it runs here.
    bench: ownSeconds(),
  });
  const start = take();
  return {
    perRequest(requests: number) {
      const end = take();
      return {
        serverMs: ((end.server - start.server) * 1000) / requests,
        postgresMs: ((end.postgres - start.postgres) * 1000) / requests,
        benchMs: ((end.bench - start.bench) * 1000) / requests,
      };
    },
  };
}

/** CPU time per request of the server, PostgreSQL and the bench's own process (`cpuMeter`). */
export type RequestCpu = ReturnType<ReturnType<typeof cpuMeter>['perRequest']>;

/** `cpuMeter`'s figures as printed. */
export const cpuLine = (c: RequestCpu) =>
  `CPU per request: server ${c.serverMs.toFixed(2)} ms, PostgreSQL ${c.postgresMs.toFixed(2)} ms, the bench's own process ${c.benchMs.toFixed(2)} ms`;
