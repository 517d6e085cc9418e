/**
 * The mail outbox survives kill -9: the real server (sources, in a
 * child process) on a fresh database of each engine, its SMTP_URL naming a
 * port where nothing listens yet. Twenty reservations, each answered 200, each
 * on a lesson of its own; SIGKILL right after the last answer. The outbox is
 * then read straight from the database (every acknowledged reservation has its
 * two mails there, nothing sent), the SMTP sink starts on that port, and the
 * server restarts on the same database: the amateur's and the pro's 予約 mail
 * of every reservation arrive, each exactly once, and every row ends `sent`.
 *
 * The restarted server runs CLAIM_MS + 5 s ahead of the wall clock (a
 * `Date` shifted by an --import preload), as if it came back once the claims
 * of the killed process had expired: a mail that process had claimed waits
 * CLAIM_MS (2 minutes) before any worker takes it again, and a mail whose
 * attempt failed waits its backoff (7.5–12.5 s). Nothing else differs.
 * With the mail server down before the kill, no copy can have left, so every
 * mail must arrive exactly once. About 15–30 s per engine.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLAIM_MS } from '../../src/repositories/outbox-repository.js';
import { DRIVERS, type Driver, WEB_CLIENT } from '../helper.js';
import {
  freePort,
  SERVER_SRC,
  startServer,
  type ServerProcess,
} from '../../../../test-support/server-process.js';
import { mailSink, type MailSink } from '../../../../test-support/mail-sink.js';
import { readDatabase } from '../../../../test-support/read-database.js';

const RESERVATIONS = 20;
const PASSWORD = 'proam-demo-2026';
const SUBJECT = {
  amateur: 'ラウンドレッスンのご予約が確定しました',
  pro: 'ラウンドレッスンに予約が入りました',
};

/** Node arguments for the server from its sources with every `Date` `offsetMs` ahead. */
function shiftedServer(offsetMs: number): string[] {
  const preload = `
const RealDate = globalThis.Date;
const realNow = RealDate.now.bind(RealDate);
RealDate.now = () => realNow() + ${offsetMs};
globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) =>
    Reflect.construct(target, args.length === 0 ? [target.now()] : args, newTarget),
  apply: (target) => new target(target.now()).toString(),
});`;
  return [
    '--import',
    `data:text/javascript,${encodeURIComponent(preload)}`,
    '--conditions=source',
    '--import',
    'tsx',
    SERVER_SRC,
  ];
}

type Envelope = { status: string; code?: string; body?: unknown };

async function post(
  origin: string,
  apiPath: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; json: Envelope }> {
  const res = await fetch(`${origin}/api${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Envelope };
}

async function login(origin: string, mail: string, password = PASSWORD) {
  const r = await post(
    origin,
    '/auth/login',
    { mail, password },
    { authorization: WEB_CLIENT },
  );
  assert.equal(r.status, 200, `login ${mail}: ${JSON.stringify(r.json)}`);
  const b = r.json.body as {
    token: { accessToken: string };
    user: { id: string };
  };
  return { mail, id: b.user.id, auth: `Bearer ${b.token.accessToken}` };
}

type OutboxRow = { status: string; subject: string; to_address: string };

/** The engine's settings, and the outbox read straight from its files or database while no server runs. */
async function engine(driver: Driver, dataDir: string) {
  const outbox = (databaseUrl: string | null) => () =>
    readDatabase<OutboxRow>(
      { dataDir, databaseUrl },
      'select status, subject, to_address from mail_outbox',
    );
  if (driver === 'pglite')
    return {
      env: {} as Record<string, string>,
      outbox: outbox(null),
      drop: async () => undefined,
    };
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `proam_maildur_${process.pid}_${Date.now().toString(36)}`;
  const once = (sql: string) =>
    readDatabase({ dataDir, databaseUrl: admin }, sql);
  await once(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    outbox: outbox(url.toString()),
    drop: () => once(`drop database if exists ${name} with (force)`),
  };
}

for (const driver of DRIVERS) {
  describe(`mail outbox through kill -9 (${driver})`, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-maildur-'));
    let server: ServerProcess | undefined;
    let sink: MailSink | undefined;
    let drop: () => Promise<unknown> = async () => undefined;
    after(async () => {
      await server?.kill();
      await sink?.stop();
      await drop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('delivers both 予約 mails of every acknowledged reservation exactly once after a restart', async (t) => {
      // When each step ended (ms from the start), printed at the end.
      const t0 = Date.now();
      const marks: string[] = [];
      const mark = (what: string) => marks.push(`${what} ${Date.now() - t0}`);
      const db = await engine(driver, dataDir);
      drop = db.drop;
      const smtpPort = await freePort();
      const env = {
        ...db.env,
        DATA_DIR: dataDir,
        JWT_SECRET: 'mail-durability-secret-mail-durability-01',
        WEB_DIST: path.join(dataDir, 'no-web'),
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // PGlite's queries stall the loop on purpose here; nothing to shed.
        SHED_EVENT_LOOP_DELAY_MS: '0',
        JOB_INTERVAL_MS: '0',
      };
      server = await startServer({
        entry: 'src',
        env,
        readyTimeoutMs: 60_000,
      });
      mark('ready');
      const { origin } = server;
      const amateurs = [];
      for (let i = 1; i <= 6; i++)
        amateurs.push(await login(origin, `ama${i}@example.jp`));
      const pros = [];
      for (let i = 1; i <= 5; i++)
        pros.push(await login(origin, `pro${i}@example.jp`));
      const admin = await login(origin, 'admin@example.jp', 'proam-admin-2026');

      mark('logins');
      // One lesson per reservation, each at a place of its own: a mail names its lesson.
      const tag = `耐久${Date.now().toString(36)}`;
      const lessons = [];
      for (let i = 0; i < RESERVATIONS; i++) {
        const pro = pros[i % pros.length]!;
        const place = `${tag} コース${String(i + 1).padStart(2, '0')}`;
        const r = await post(
          origin,
          '/schedule/create',
          {
            date: `2099-03-${String(1 + (i % 28)).padStart(2, '0')}`,
            startTime: '09:00',
            endTime: '12:00',
            place,
            capacity: 4,
            fee: 10_000,
          },
          { authorization: pro.auth },
        );
        assert.equal(r.status, 200, JSON.stringify(r.json));
        lessons.push({ id: (r.json.body as { id: string }).id, pro, place });
      }

      mark('lessons');
      const acked: { amateur: string; pro: string; place: string }[] = [];
      for (const [i, lesson] of lessons.entries()) {
        const amateur = amateurs[i % amateurs.length]!;
        const r = await post(
          origin,
          '/schedule/reserve',
          { id: lesson.id },
          { authorization: amateur.auth },
        );
        assert.equal(r.status, 200, JSON.stringify(r.json));
        acked.push({
          amateur: amateur.mail,
          pro: lesson.pro.mail,
          place: lesson.place,
        });
      }
      assert.equal(await server.kill(), 'SIGKILL');
      mark('killed');

      // Before any restart: the mails are in the database, none of them sent.
      const rows = (await db.outbox()).filter((r) =>
        r.subject.includes('予約'),
      );
      const byStatus: Record<string, number> = {};
      for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      t.diagnostic(`outbox at the kill: ${JSON.stringify(byStatus)}`);
      assert.equal(
        rows.length,
        2 * RESERVATIONS,
        'two 予約 mails per reservation',
      );
      assert.ok(
        rows.every((r) => r.status === 'queued' || r.status === 'sending'),
        JSON.stringify(byStatus),
      );

      mark('snapshot');
      sink = mailSink(smtpPort);
      await sink.start();
      server = await startServer({
        entry: { nodeArgs: shiftedServer(CLAIM_MS + 5_000) },
        env,
        port: server.port,
        readyTimeoutMs: 60_000,
      });
      mark('restarted');
      const booking = () =>
        sink!.received.filter((m) => m.subject.includes('予約'));
      const summary = async () => {
        const r = await post(
          server!.origin,
          '/admin/mailOutbox',
          {},
          { authorization: admin.auth },
        );
        assert.equal(r.status, 200, JSON.stringify(r.json));
        return r.json.body as { queued: number; sent: number; dead: number };
      };
      const started = Date.now();
      let s = await summary();
      while (
        (booking().length < 2 * RESERVATIONS || s.queued > 0) &&
        Date.now() - started < 25_000
      ) {
        await new Promise((r) => setTimeout(r, 100));
        s = await summary();
      }
      // A little longer, for a copy that would come late.
      await new Promise((r) => setTimeout(r, 500));
      s = await summary();
      t.diagnostic(
        `delivered ${booking().length} in ${Date.now() - started} ms after the restart`,
      );

      const count = (to: string, subject: string, place: string) =>
        booking().filter(
          (m) =>
            m.to === to &&
            m.subject.includes(subject) &&
            m.text.includes(place),
        ).length;
      const wrong: string[] = [];
      for (const a of acked) {
        const toAmateur = count(a.amateur, SUBJECT.amateur, a.place);
        const toPro = count(a.pro, SUBJECT.pro, a.place);
        if (toAmateur !== 1)
          wrong.push(`${a.amateur} ${a.place}: ${toAmateur}`);
        if (toPro !== 1) wrong.push(`${a.pro} ${a.place}: ${toPro}`);
      }
      assert.deepEqual(wrong, [], 'each 予約 mail exactly once');
      assert.equal(booking().length, 2 * RESERVATIONS, 'no other 予約 mail');
      assert.equal(s.queued, 0);
      assert.equal(s.dead, 0);
      assert.equal(s.sent, sink.received.length, 'every row sent, once');
      assert.equal(await server.stop(), 0);
      mark('stopped');
      t.diagnostic(marks.join(', '));
    });
  });
}
