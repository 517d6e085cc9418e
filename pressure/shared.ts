/**
 * What every pressure check shares: the real built server in a child process
 * (test-support/server-process.ts), a small HTTP client that reports every
 * outcome (never throws), tokens, throw-away PostgreSQL databases,
 * percentiles, Markdown tables, and `check`: each hard check is a node:test
 * test of its own, so node:test counts them and sets the exit code.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import {
  freePort,
  REPO_ROOT,
  spawnServer as spawnProcess,
  startServer as startProcess,
  type ServerOptions,
  type ServerProcess,
} from '../test-support/server-process.js';

export { freePort, type ServerProcess };

export const ROOT = REPO_ROOT;
export const PG_URL =
  process.env.PRESSURE_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL =
  process.env.PRESSURE_REDIS_URL ??
  process.env.TEST_REDIS_URL ??
  'redis://127.0.0.1:6379';
/** Every instance of a check signs and verifies with this key, so tokens outlive restarts. */
export const JWT_SECRET = 'pressure-secret-pressure-secret-pressure-01';
export const CLIENT_AUTH = `Basic ${Buffer.from('web:proam-web-dev').toString('base64')}`;
export const DEMO_PASSWORD = 'proam-demo-2026';
export const ADMIN = { mail: 'admin@example.jp', password: 'proam-admin-2026' };

export const sleep = (ms: number) =>
  new Promise<void>((r) => setTimeout(r, ms));
export const rand = (n: number) => Math.floor(Math.random() * n);
export const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;

/** The built server with the checks' JWT key, on `port` or a free one. */
const serverOptions = (
  env: Record<string, string>,
  port?: number,
): ServerOptions => ({
  ...(port === undefined ? {} : { port }),
  readyTimeoutMs: 120_000,
  keepOutput: 16 * 1024,
  env: {
    JWT_SECRET,
    // The web build is not what these checks look at.
    WEB_DIST: path.join(tmpdir(), 'proam-pressure-no-web'),
    ...env,
  },
});

/** Starts the server without waiting for it (e.g. to kill it during start-up). */
export const spawnServer = (
  env: Record<string, string>,
  port: number,
): Promise<ServerProcess> => spawnProcess(serverOptions(env, port));

/** Starts the server and waits until /readyz answers 200. */
export const startServer = (
  env: Record<string, string>,
  port?: number,
): Promise<ServerProcess> => startProcess(serverOptions(env, port));

/** One HTTP exchange as the checks see it. `status` 0: no HTTP answer at all. */
export type Answer = {
  status: number;
  /** `OK`, or the NG code of the envelope; undefined when the body is not an envelope. */
  code?: string;
  body?: unknown;
  headers: IncomingHttpHeaders;
  ms: number;
  /** performance.now() when the request was handed to the client, and when its last byte went to the socket. */
  startedAt: number;
  sentAt?: number;
  /** Whether the request went on a kept-alive connection rather than a new one. */
  reused: boolean;
  /** Transport error (ECONNRESET, ECONNREFUSED, timeout…) when status is 0. */
  error?: string;
};

type RequestOpts = {
  headers?: Record<string, string>;
  /** false: a fresh connection; default: the shared keep-alive agent. */
  agent?: http.Agent | false;
  timeoutMs?: number;
  /** Source address on the loopback (X-Forwarded-For tests). */
  localAddress?: string;
};

export const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** node:http rather than fetch: exact control of connections and source address, and no hidden retries. */
export function request(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  opts: RequestOpts = {},
): Promise<Answer> {
  const started = performance.now();
  let sentAt: number | undefined;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Omit<Answer, 'ms' | 'startedAt' | 'reused'>) => {
      if (settled) return;
      settled = true;
      resolve({
        ...a,
        reused: req.reusedSocket,
        ms: performance.now() - started,
        startedAt: started,
        ...(sentAt === undefined ? {} : { sentAt }),
      });
    };
    const req = http.request(
      url,
      {
        method,
        agent: opts.agent ?? keepAlive,
        ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
        headers: {
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(payload)),
              }),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) =>
          done({ status: 0, headers: {}, error: e.message }),
        );
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let code: string | undefined;
          let parsed: unknown;
          try {
            const j = JSON.parse(text) as {
              status?: string;
              code?: string;
              body?: unknown;
            };
            if (j.status === 'OK') {
              code = 'OK';
              parsed = j.body;
            } else if (j.status === 'NG') code = j.code;
          } catch {
            /* not JSON: code stays undefined */
          }
          done({
            status: res.statusCode ?? 0,
            code,
            body: parsed,
            headers: res.headers,
          });
        });
      },
    );
    req.setTimeout(opts.timeoutMs ?? 15_000, () => {
      req.destroy(new Error('timeout'));
    });
    req.on('finish', () => (sentAt = performance.now()));
    req.on('error', (e: NodeJS.ErrnoException) =>
      done({ status: 0, headers: {}, error: e.code ?? e.message }),
    );
    req.end(payload);
  });
}

/** POST to /api<path> with an optional bearer token. */
export function api(
  origin: string,
  apiPath: string,
  body: unknown,
  token?: string,
  opts: RequestOpts = {},
): Promise<Answer> {
  return request('POST', `${origin}/api${apiPath}`, body, {
    ...opts,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...opts.headers,
    },
  });
}

export type Member = { id: string; type: 'pro' | 'amature' | 'admin' };

export type LoginBody = {
  token: { accessToken: string; refreshToken: string };
  user: { id: string; type: Member['type'] };
};

export async function login(
  origin: string,
  mail: string,
  password = DEMO_PASSWORD,
  opts: RequestOpts = {},
): Promise<LoginBody> {
  const r = await request(
    'POST',
    `${origin}/api/auth/login`,
    { mail, password },
    { ...opts, headers: { authorization: CLIENT_AUTH, ...opts.headers } },
  );
  if (r.code !== 'OK')
    throw new Error(`login ${mail}: ${r.status} ${r.code ?? r.error}`);
  return r.body as LoginBody;
}

const signer = createSigner({
  key: JWT_SECRET,
  algorithm: 'HS256',
  expiresIn: 3_600_000,
});
let tokenSeq = 0;
/**
 * An access token like the server's own (same key and claims). `jti` makes
 * each one distinct: rate limits per caller are keyed by the token.
 */
export const token = (m: Member): string =>
  signer({ sub: m.id, typ: m.type, kind: 'access', jti: `p${++tokenSeq}` });

/** The demo members (ama1..6, pro1..5, admin) by logging each in once. */
export async function demoMembers(origin: string): Promise<{
  amateurs: Member[];
  pros: Member[];
  admin: Member;
}> {
  const one = async (mail: string, password?: string) =>
    (await login(origin, mail, password)).user;
  const amateurs: Member[] = [];
  const pros: Member[] = [];
  for (let i = 1; i <= 6; i++) amateurs.push(await one(`ama${i}@example.jp`));
  for (let i = 1; i <= 5; i++) pros.push(await one(`pro${i}@example.jp`));
  const admin = await one(ADMIN.mail, ADMIN.password);
  return { amateurs, pros, admin };
}

export type TempDatabase = { url: string; drop(): Promise<void> };

/** A database of its own on the PostgreSQL server, dropped by `drop()`. */
export async function tempDatabase(prefix: string): Promise<TempDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export type Engine = 'PGlite' | 'PostgreSQL';

/** The engines a check runs on: PRESSURE_ENGINES, `pglite,postgres` by default. */
export const ENGINES: readonly Engine[] = (
  process.env.PRESSURE_ENGINES ?? 'pglite,postgres'
)
  .split(',')
  .flatMap((e): Engine[] =>
    e === 'pglite' ? ['PGlite'] : e === 'postgres' ? ['PostgreSQL'] : [],
  );

/**
 * Runs `body` with the server settings of one engine: a fresh DATA_DIR, and
 * on PostgreSQL a throw-away database (DATABASE_URL); both go afterwards.
 */
export async function onEngine<T>(
  engine: Engine,
  prefix: string,
  body: (setup: {
    env: Record<string, string>;
    dataDir: string;
    databaseUrl: string | null;
  }) => Promise<T>,
): Promise<T> {
  const database =
    engine === 'PostgreSQL' ? await tempDatabase(prefix) : undefined;
  const dir = tempDir(`${prefix}-`);
  try {
    return await body({
      env: {
        DATA_DIR: dir.dir,
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      dataDir: dir.dir,
      databaseUrl: database?.url ?? null,
    });
  } finally {
    await database?.drop();
    dir.remove();
  }
}

/** The business invariants as SQL: each returned line is one violation. */
export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

export async function sqlInvariants(q: Query): Promise<string[]> {
  const out: string[] = [];
  const bad = async (what: string, sql: string) => {
    const rows = await q(sql);
    for (const r of rows) out.push(`${what}: ${JSON.stringify(r)}`);
  };
  await bad(
    'reservations beyond capacity or ≠ reserved_count',
    // The places held: a cancelled reservation keeps its row (wave 2) but no place.
    `select s.id, s.capacity, s.reserved_count, count(r.user_id)::int as n
       from schedules s left join reservations r
         on r.schedule_id = s.id and r.status in ('confirmed', 'pending')
      group by s.id having count(r.user_id) > s.capacity or count(r.user_id) <> s.reserved_count`,
  );
  await bad(
    'like_count ≠ likes received',
    `select u.id, u.like_count, count(l.id)::int as n
       from users u left join likes l on l.like_user_id = u.id
      group by u.id having count(l.id) <> u.like_count`,
  );
  await bad(
    'duplicate chat sort_key',
    `select partition_key, sort_key, count(*)::int as n from messages group by 1, 2 having count(*) > 1`,
  );
  return out;
}

/** Nearest-rank percentile; NaN for no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[
    Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))
  ]!;
}

export const ms = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(0));
export const pct = (part: number, whole: number) =>
  whole === 0 ? '0 %' : `${((100 * part) / whole).toFixed(3)} %`;

/** A Markdown table. */
export function table(head: string[], rows: (string | number)[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/**
 * One hard correctness check, as a test of its own inside the running test
 * `t`: it passes when `ok`, and `what` (with the figures that decided it)
 * names it. Performance targets are only printed (see `target`).
 */
export async function check(
  t: TestContext,
  ok: boolean,
  what: string,
): Promise<void> {
  await t.test(what, () => assert.ok(ok, what));
}

/** "met" / "NOT met" for a performance target (never a failure). */
export const target = (ok: boolean) => (ok ? 'met' : 'NOT met');
