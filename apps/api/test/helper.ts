import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before } from 'node:test';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import {
  fromPglite,
  migrateDatabase,
  openPglite,
  openPostgres,
  type Database,
} from '../src/db/database.js';
import type { PGlite } from '../src/db/pglite.js';
import { DEMO_PASSWORD, seedDemo } from '../src/db/seed.js';
import {
  startStripeFake,
  type StripeFake,
} from '../../../test-support/stripe-fake.js';

export type Driver = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when CI (or you) set TEST_DATABASE_URL. */
export const DRIVERS: Driver[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

/** The Authorization value of the web app's API client (the API_CLIENTS default), which the sign-in routes ask for. */
export const WEB_CLIENT = `Basic ${Buffer.from('web:proam-web-dev').toString('base64')}`;

// One migrated, seeded template per driver and run; each test app gets a copy.
let pgliteTemplate: Promise<PGlite> | undefined;
function pgliteCopy(): Promise<Database> {
  pgliteTemplate ??= (async () => {
    const db = await openPglite();
    await migrateDatabase(db);
    await seedDemo(db);
    return db.pglite!;
  })();
  return pgliteTemplate.then(async (tpl) =>
    fromPglite((await tpl.clone()) as PGlite),
  );
}

const runTag = `${process.pid}_${Date.now().toString(36)}`;
const createdDbs: string[] = [];
let pgTemplate: Promise<string> | undefined;
let dbCounter = 0;

function adminUrl(): string {
  return process.env.TEST_DATABASE_URL!;
}
function urlFor(dbName: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${dbName}`;
  return u.toString();
}
async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function postgresCopy(): Promise<Database> {
  pgTemplate ??= (async () => {
    const name = `proam_tpl_${runTag}`;
    await adminQuery(`create database ${name}`);
    createdDbs.push(name);
    const db = openPostgres(urlFor(name), 2);
    await migrateDatabase(db);
    await seedDemo(db);
    await db.close();
    return name;
  })();
  const tpl = await pgTemplate;
  const name = `proam_t_${runTag}_${++dbCounter}`;
  await adminQuery(`create database ${name} template ${tpl}`);
  createdDbs.push(name);
  return openPostgres(urlFor(name), 5);
}

after(async () => {
  if (!process.env.TEST_DATABASE_URL) return;
  for (const name of createdDbs.reverse()) {
    await adminQuery(`drop database if exists ${name} with (force)`).catch(
      () => undefined,
    );
  }
});

/**
 * For a describe: loadConfig on a DATA_DIR of its own (removed after the
 * describe), `base` under each call's settings.
 */
export function configLoader(
  prefix: string,
  base: Record<string, string> = {},
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  return (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: dataDir, ...base, ...env });
}

/** Asserts that `load` refuses `env` with a ConfigError naming `setting`, in its message too. */
export function assertRefusesSetting(
  load: (env: Record<string, string>) => unknown,
  env: Record<string, string>,
  setting: string,
) {
  assert.throws(
    () => load(env),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.setting === setting &&
      e.message.includes(setting),
    setting,
  );
}

export type TestApp = Awaited<ReturnType<typeof buildApp>>['app'];

/**
 * Reads until `ok` holds, at most 2 s, then once more: for a change that
 * reaches a cache by the database's notification (another instance's write,
 * or a SQL tool's), whose flight time a test cannot know.
 */
export async function eventually(ok: () => Promise<boolean>): Promise<boolean> {
  const started = Date.now();
  while (!(await ok()) && Date.now() - started < 2000)
    await new Promise((r) => setTimeout(r, 5));
  return ok();
}

/** Another API instance on the harness's PostgreSQL database (cross-instance tests). */
export async function secondInstance(
  h: Harness,
  env: Record<string, string> = {},
  opts: { clock?: TestClock } = {},
): Promise<{ app: TestApp; close(): Promise<void> }> {
  const config = loadConfig({
    DATA_DIR: h.dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    SEED_DEMO: 'false',
    WEB_DIST: '/nonexistent',
    SHED_EVENT_LOOP_DELAY_MS: '0',
    LOG_LEVEL: 'silent',
    JOB_INTERVAL_MS: '0',
    ...env,
  });
  const database = openPostgres(h.database.url!, 3);
  const { app } = await buildApp({
    config,
    database,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export type Harness = {
  app: TestApp;
  database: Database;
  dataDir: string;
  /** Every log line the app wrote, as raw text. */
  logs: string[];
  outbox(): { file: string; text: string }[];
  /** Waits for the newest mail to `to` whose decoded text matches, and returns that text. */
  mailTo(to: string, match?: RegExp): Promise<string>;
  close(): Promise<void>;
};

/** A clock tests can move forward. */
export class TestClock {
  private offset = 0;
  now = () => new Date(Date.now() + this.offset);
  advance(ms: number) {
    this.offset += ms;
  }
  /** From now on the clock reads `at`, and runs on from there. */
  set(at: Date) {
    this.offset = at.getTime() - Date.now();
  }
}

/** A real app on a fresh copy of the seeded database, with its own DATA_DIR and captured logs. */
export async function harness(
  driver: Driver,
  env: Record<string, string> = {},
  opts: { clock?: TestClock; onRoute?: (route: never) => void } = {},
): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    SEED_DEMO: 'false',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Bursts in tests stall PGlite's loop on purpose; shedding is tested where it is meant.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    // Scheduled jobs run when a test asks (app.jobs.runOnce), at the time it chose.
    JOB_INTERVAL_MS: '0',
    ...env,
  });
  const database =
    driver === 'pglite' ? await pgliteCopy() : await postgresCopy();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString('utf8'));
      cb();
    },
  });
  const { app } = await buildApp(
    { config, database, ...(opts.clock ? { clock: opts.clock } : {}) },
    { logStream, ...(opts.onRoute ? { onRoute: opts.onRoute } : {}) },
  );
  await app.ready();
  const outboxDir = path.join(dataDir, 'outbox');
  const outbox = () =>
    (existsSync(outboxDir) ? readdirSync(outboxDir) : [])
      .sort()
      .map((file) => ({
        file,
        text: readFileSync(path.join(outboxDir, file), 'utf8'),
      }));
  return {
    app,
    database,
    dataDir,
    logs,
    outbox,
    async mailTo(to, match) {
      for (let i = 0; i < 100; i++) {
        const mail = outbox()
          .map((m) => decodeMail(m.text))
          .filter((t) => t.includes(`To: ${to}`) && (!match || match.test(t)))
          .pop();
        if (mail) return mail;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no mail to ${to}`);
    },
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app with online payment on, against a Stripe fake of its own, and how to stop both. */
export type PaymentsOn = {
  fake: StripeFake;
  h: Harness;
  close(): Promise<void>;
};

/**
 * A harness with online payment on against a new Stripe fake (`env` adds to
 * or overrides its three keys), listening on 127.0.0.1 so that the fake
 * delivers its signed events over HTTP exactly as Stripe would. `close`
 * waits for deliveries and payment work in flight first.
 */
export async function paymentsOn(
  driver: Driver,
  env: Record<string, string> = {},
  opts: Parameters<typeof harness>[2] = {},
): Promise<PaymentsOn> {
  const fake = await startStripeFake();
  const h = await harness(
    driver,
    {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_proamfake',
      STRIPE_API_BASE: fake.url,
      ...env,
    },
    opts,
  );
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = h.app.server.address() as AddressInfo;
  fake.setWebhook(`http://127.0.0.1:${port}/api/payment/webhook`);
  return {
    fake,
    h,
    async close() {
      await fake.settled();
      await h.app.payments?.settled();
      await h.close();
      await fake.close();
    },
  };
}

type Json = Record<string, unknown>;

/** POST a JSON body to an API path and parse the envelope. */
export async function call(
  app: TestApp,
  apiPath: string,
  body?: unknown,
  opts: {
    query?: string;
    headers?: Record<string, string>;
    remoteAddress?: string;
  } = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api${apiPath}${opts.query ? `?${opts.query}` : ''}`,
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    ...(body === undefined
      ? {}
      : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { res, status: res.statusCode, json: res.json<Json>() };
}

/** Signs in with a password as the web app does; `remoteAddress` keeps apart attempts that the per-IP limits would count together. */
export function signIn(
  app: TestApp,
  mail: string,
  password = DEMO_PASSWORD,
  remoteAddress?: string,
) {
  return call(
    app,
    '/auth/login',
    { mail, password },
    {
      headers: { authorization: WEB_CLIENT },
      ...(remoteAddress ? { remoteAddress } : {}),
    },
  );
}

/** Decodes the quoted-printable or base64 body parts of a raw mail, keeping the headers. */
export function decodeMail(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split) : '';
  let text = body;
  if (/Content-Transfer-Encoding: base64/i.test(raw)) {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  } else if (/Content-Transfer-Encoding: quoted-printable/i.test(raw)) {
    const bytes: number[] = [];
    const src = body.replace(/=\r?\n/g, '');
    for (let i = 0; i < src.length; i++) {
      if (src[i] === '=' && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) {
        bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(src[i]!, 'utf8'));
      }
    }
    text = Buffer.from(bytes).toString('utf8');
  }
  return `${head}\n${text}`;
}

/** Access tokens and ids of every seeded member, keyed by the local part of their address (ama1, pro2, admin…). */
export async function memberTokens(
  h: Harness,
): Promise<{ tok: Record<string, string>; ids: Record<string, string> }> {
  const { users } = await import('../src/db/schema.js');
  const { signAccessToken } = await import('../src/plugins/auth.js');
  const tok: Record<string, string> = {};
  const ids: Record<string, string> = {};
  for (const r of await h.database.db.select().from(users)) {
    const key = r.email.split('@')[0]!;
    ids[key] = r.id;
    tok[key] = signAccessToken(h.app, { id: r.id, type: r.type });
  }
  return { tok, ids };
}

/** The Authorization header for an access token. */
export const bearer = (token: string | undefined) => ({
  headers: { authorization: `Bearer ${token}` },
});

export type HarnessSuite = {
  /** The harness, once the suite's `before` has made it. */
  readonly h: Harness;
};

/**
 * For a describe: a harness on `driver` made before its tests and closed after
 * them, read as `suite.h` (it does not exist yet while the describe runs).
 */
export function harnessSuite(
  driver: Driver,
  env: Record<string, string> = {},
  opts: Parameters<typeof harness>[2] = {},
): HarnessSuite {
  let made: Harness | undefined;
  before(async () => {
    made = await harness(driver, env, opts);
  });
  after(() => made?.close());
  return {
    get h() {
      if (!made) throw new Error('the suite harness is made in before()');
      return made;
    },
  };
}

export type MemberSuite = HarnessSuite & {
  /** Access tokens and ids of every seeded member (ama1, pro2, admin…). */
  tok: Record<string, string>;
  ids: Record<string, string>;
  /** Call options carrying that member's token. */
  as(who: string): { headers: Record<string, string> };
  /** POST `body` to an API path as that member. */
  post(who: string, apiPath: string, body?: unknown): ReturnType<typeof call>;
  /**
   * POST as that member and assert the answer: `want` is the HTTP status
   * (a number) or the envelope's error code (a string). Unless `message`
   * says otherwise, a failure shows the answer.
   */
  expect(
    who: string,
    apiPath: string,
    body: unknown,
    want: number | string,
    message?: string,
  ): ReturnType<typeof call>;
};

/** For a describe: a `harnessSuite` with every seeded member's token and id. */
export function memberSuite(
  driver: Driver,
  env: Record<string, string> = {},
  opts: Parameters<typeof harness>[2] = {},
): MemberSuite {
  const base = harnessSuite(driver, env, opts);
  const tok: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const suite: MemberSuite = {
    get h() {
      return base.h;
    },
    tok,
    ids,
    as: (who) => bearer(tok[who]),
    post: (who, apiPath, body) =>
      call(suite.h.app, apiPath, body, suite.as(who)),
    async expect(who, apiPath, body, want, message) {
      const r = await suite.post(who, apiPath, body);
      const why = message ?? `${who} ${apiPath}: ${JSON.stringify(r.json)}`;
      if (typeof want === 'number') assert.equal(r.status, want, why);
      else assert.equal(r.json.code, want, why);
      return r;
    },
  };
  before(async () => {
    const members = await memberTokens(base.h);
    Object.assign(tok, members.tok);
    Object.assign(ids, members.ids);
  });
  return suite;
}
