/**
 * The durable mail outbox under pressure, against the real built
 * server with SMTP_URL naming a loopback SMTP sink (test-support/mail-sink.ts).
 * The reference is the `mail_outbox` table: after each part, every row must be
 * `sent` (none queued, none `dead`), and the mails the sink received must be
 * exactly the rows, compared as a multiset of (recipient, subject, text) —
 * a count per recipient, subject and text, so a mail sent twice or lost shows
 * whatever its content. The rows themselves are checked against the answers:
 * each acknowledged reservation and cancellation has its two mails (the
 * amateur's and the pro's), as many as there were acknowledged changes.
 *
 * (a) Outage, on PGlite and PostgreSQL: the six demo amateurs reserve and
 *     cancel on capacity-2 lessons and chat in their lessons, the five pros
 *     chat, for PRESSURE_MAIL_SECONDS (60), while nothing listens on the SMTP
 *     port for PRESSURE_SMTP_OUTAGE_SECONDS (300, counted from the start of the
 *     load); then the sink starts. Every mail arrives once, none is dead; the
 *     queue drains within RETURN_WAIT_MS of the sink's return, printed: the
 *     worker probes the mail server every 10 s during an outage and makes
 *     every failed mail due when it answers, instead of waiting out a backoff
 *     of up to 10 minutes.
 * (b) Crashes, on PGlite and PostgreSQL, sink up: the same load, SIGKILL at a
 *     random moment PRESSURE_MAIL_KILLS (5) times, restart each time. After
 *     each kill the rows the dead worker had claimed (`sending`) are read from
 *     the database. Every mail arrives; a mail may arrive twice only when the
 *     kill fell between the SMTP server's 250 and the row's `sent` (the
 *     at-least-once window the worker documents): a copy received before the
 *     kill and the row still `sending` at the kill. Any other second copy
 *     fails the check. Claims of the killed process are retried after
 *     CLAIM_MS (2 minutes), which the printed queue age shows.
 * (c) Reminders and chat digests once, on PostgreSQL: two API instances on one
 *     database run the jobs every 200 ms (JOB_INTERVAL_MS=200) against lessons
 *     tomorrow (Japan time) with reservations and unread chat. The servers'
 *     clocks are moved (pressure/clock-shift.ts, a Date preload in the server
 *     processes; nothing else's clock is touched): the lessons, reservations
 *     and messages are made at 17:30 Japan time today, when no reminder is
 *     due; then both instances start on one clock reading 17:59:30, so both
 *     already scan every 200 ms when 18:00 comes (the reminders) and when
 *     the messages have been unread for 30 minutes (the digests), and go on
 *     for PRESSURE_MAIL_JOB_SECONDS (10) more: about 100 scans together.
 *     Proven: every `reminder:<scheduleId>:<userId>` key of those lessons
 *     exists exactly once (each participant and the pro), every due digest
 *     exists once (one chat_digests row, one outbox row), both workers
 *     together sent each reminder and digest mail once, and both instances
 *     were up before 18:00. Not proven: that their scans overlapped in time
 *     (likely, not measured).
 *
 * `npm run test:pressure:mail`; PRESSURE_ENGINES picks the engines of (a) and
 * (b), PRESSURE_MAIL_PARTS the parts (`outage,kill,jobs`). With the defaults it takes about 30 minutes (the 5-minute outage and
 * its backoff, per engine); PRESSURE_SMTP_OUTAGE_SECONDS=30 for a quick run.
 */
import { after, describe, it, type TestContext } from 'node:test';
import {
  addDays,
  japan,
  japanInstant,
  shiftedClockEnv,
} from './clock-shift.js';
import {
  mailSink,
  type MailSink,
  type SunkMail,
} from '../test-support/mail-sink.js';
import { readDatabase } from '../test-support/read-database.js';
import {
  api,
  check,
  demoMembers,
  ENGINES,
  freePort,
  keepAlive,
  login,
  onEngine,
  pick,
  rand,
  sleep,
  startServer,
  table,
  tempDir,
  token,
  type Answer,
  type Engine,
  type Member,
  type ServerProcess,
} from './shared.js';

const LOAD_SECONDS = Number(process.env.PRESSURE_MAIL_SECONDS ?? 60);
const OUTAGE_SECONDS = Number(process.env.PRESSURE_SMTP_OUTAGE_SECONDS ?? 300);
const KILLS = Number(process.env.PRESSURE_MAIL_KILLS ?? 5);
const JOB_SECONDS = Number(process.env.PRESSURE_MAIL_JOB_SECONDS ?? 10);
/** Which parts run: PRESSURE_MAIL_PARTS, `outage,kill,jobs` by default. */
const PARTS = new Set(
  (process.env.PRESSURE_MAIL_PARTS ?? 'outage,kill,jobs').split(','),
);
/** A member's pause between two calls (ms, ± half): about 6 reservations or cancellations per second per amateur. */
const PACE_MS = 150;
/** Chat posts are limited to 60 a minute per member; stay under it. */
const CHAT_EVERY_MS = 1_500;
/** The worker's claim on a mail (outbox-repository.ts CLAIM_MS). */
const CLAIM_MS = 2 * 60_000;
/** The longest backoff, 10 minutes + 25 % jitter, and a margin. */
const LONGEST_WAIT_MS = 10 * 60_000 * 1.25 + 60_000;
/** After an outage: the worker's probe (10 s) and the sending, with a margin for a busy machine. */
const RETURN_WAIT_MS = 90_000;

const SUBJECT = {
  amateurReserved: 'ラウンドレッスンのご予約が確定しました',
  proReserved: 'ラウンドレッスンに予約が入りました',
  amateurCancelled: 'ご予約のキャンセルを受け付けました',
  proCancelled: 'ラウンドレッスンの予約がキャンセルされました',
  reminder: '明日はラウンドレッスンです',
  digest: 'チャットに未読のメッセージがあります',
};

type OutboxRow = {
  id: string;
  status: string;
  category: string;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
  dedupe_key: string | null;
  created_at: Date;
  sent_at: Date | null;
};
type Setup = {
  env: Record<string, string>;
  dataDir: string;
  databaseUrl: string | null;
};

const outboxRows = (s: Setup, where = 'true') =>
  readDatabase<OutboxRow>(
    s,
    `select id, status, category, to_address, subject, body, attempts, dedupe_key, created_at, sent_at
       from mail_outbox where ${where}`,
  );

/** Recipient, subject and text: what a received copy is matched on. Account mails lose their text once sent. */
const keyOf = (to: string, subject: string, text: string) =>
  `${to.toLowerCase()}\u0001${subject}\u0001${text.replace(/\r\n/g, '\n').trimEnd()}`;
const rowKey = (r: OutboxRow) =>
  keyOf(r.to_address, r.subject, r.category === 'account' ? '' : r.body);

type Comparison = {
  rows: number;
  sent: number;
  received: number;
  /** Rows not sent, by status. */
  unsent: Record<string, number>;
  /** Copies missing: (key, how many). */
  lost: [string, number][];
  /** Copies beyond the rows: (key, how many). */
  extra: [string, number][];
  /** Seconds from a row's creation to its `sent`, the longest. */
  maxAgeS: number;
  maxAttempts: number;
};

function compare(rows: OutboxRow[], received: SunkMail[]): Comparison {
  const accountKeys = new Set(
    rows
      .filter((r) => r.category === 'account')
      .map((r) => keyOf(r.to_address, r.subject, '')),
  );
  const want = new Map<string, number>();
  const unsent: Record<string, number> = {};
  let maxAgeS = 0;
  let maxAttempts = 0;
  for (const r of rows) {
    maxAttempts = Math.max(maxAttempts, r.attempts);
    if (r.status !== 'sent') {
      unsent[r.status] = (unsent[r.status] ?? 0) + 1;
      continue;
    }
    const k = rowKey(r);
    want.set(k, (want.get(k) ?? 0) + 1);
    if (r.sent_at)
      maxAgeS = Math.max(
        maxAgeS,
        (new Date(r.sent_at).getTime() - new Date(r.created_at).getTime()) /
          1000,
      );
  }
  const got = new Map<string, number>();
  for (const m of received) {
    const bare = keyOf(m.to, m.subject, '');
    const k = accountKeys.has(bare) ? bare : keyOf(m.to, m.subject, m.text);
    got.set(k, (got.get(k) ?? 0) + 1);
  }
  const lost: [string, number][] = [];
  const extra: [string, number][] = [];
  for (const [k, n] of want) {
    const g = got.get(k) ?? 0;
    if (g < n) lost.push([k, n - g]);
  }
  for (const [k, g] of got) {
    const n = want.get(k) ?? 0;
    if (g > n) extra.push([k, g - n]);
  }
  return {
    rows: rows.length,
    sent: rows.length - Object.values(unsent).reduce((a, b) => a + b, 0),
    received: received.length,
    unsent,
    lost,
    extra,
    maxAgeS,
    maxAttempts,
  };
}

const show = (k: string) => k.split('\u0001').slice(0, 2).join(' / ');
const sum = (xs: [string, number][]) => xs.reduce((n, [, c]) => n + c, 0);

/** Mails of one kind, by the subject the templates give it. */
const kindCount = (rows: OutboxRow[], fragment: string) =>
  rows.filter(
    (r) =>
      r.subject.includes(fragment) && !r.subject.includes('キャンセル待ち'),
  ).length;

type Lesson = { id: string; pro: Member; place: string };
type World = {
  amateurs: Member[];
  pros: Member[];
  admin: Member;
  lessons: Lesson[];
};

async function setUp(origin: string, tag: string): Promise<World> {
  const { amateurs, pros, admin } = await demoMembers(origin);
  const lessons: Lesson[] = [];
  for (const [i, pro] of pros.entries())
    for (let j = 0; j < 4; j++) {
      const place = `${tag} コース${i + 1}-${j + 1}`;
      const a = await api(
        origin,
        '/schedule/create',
        {
          date: `2099-0${1 + j}-${String(10 + i).padStart(2, '0')}`,
          startTime: '09:00',
          endTime: '12:00',
          place,
          capacity: 2,
          fee: 8_000,
        },
        token(pro),
      );
      if (a.code !== 'OK')
        throw new Error(`schedule/create: ${a.status} ${a.code}`);
      lessons.push({ id: (a.body as { id: string }).id, pro, place });
    }
  return { amateurs, pros, admin, lessons };
}

type Outcome = 'ack' | 'unknown' | 'rejected';
/** OK: applied. No answer, a 5xx or no envelope: may or may not be. Any other NG: not applied. */
function outcomeOf(a: Answer): Outcome {
  if (a.status === 200 && a.code === 'OK') return 'ack';
  if (a.status === 0 || a.status >= 500 || a.code === undefined)
    return 'unknown';
  return 'rejected';
}

/**
 * The members' calls and what the answers say about the mails that must
 * exist: acknowledged changes (a reservation or cancellation that moved a
 * place) and calls whose outcome is unknown (each may have made one).
 */
class Load {
  /** Amateur id → the lessons where they hold a place, as the answers say. */
  held = new Map<string, Set<string>>();
  reserved = 0;
  cancelled = 0;
  unknownChanges = 0;
  chat = { ack: 0, unknown: 0, rejected: 0 };
  rejected: Record<string, number> = {};
  serverErrors: string[] = [];
  seq = 0;
  constructor(
    readonly world: World,
    readonly tag: string,
  ) {
    for (const a of world.amateurs) this.held.set(a.id, new Set());
  }

  note(a: Answer, what: string): Outcome {
    const o = outcomeOf(a);
    if (o === 'rejected') {
      const k = `${what} ${a.code}`;
      this.rejected[k] = (this.rejected[k] ?? 0) + 1;
    }
    if (a.status >= 500 && a.status !== 503)
      this.serverErrors.push(`${what}: ${a.status} ${a.code ?? ''}`);
    return o;
  }

  /** Reads where `me` holds a place from the server (after an unknown outcome). */
  async resync(origin: string, me: Member, stop: () => boolean) {
    while (!stop()) {
      const a = await api(
        origin,
        '/schedule/getById',
        { userId: me.id },
        token(me),
      );
      if (a.code === 'OK') {
        const mine = new Set(this.world.lessons.map((l) => l.id));
        const list = a.body as { id: string; participants?: string[] }[];
        this.held.set(
          me.id,
          new Set(
            list
              .filter(
                (s) => mine.has(s.id) && (s.participants ?? []).includes(me.id),
              )
              .map((s) => s.id),
          ),
        );
        return;
      }
      await sleep(200);
    }
  }

  async amateur(origin: string, me: Member, stop: () => boolean) {
    const tok = token(me);
    let lastChat = 0;
    while (!stop()) {
      await sleep(PACE_MS / 2 + rand(PACE_MS));
      if (stop()) return;
      const held = this.held.get(me.id)!;
      if (
        held.size > 0 &&
        Date.now() - lastChat > CHAT_EVERY_MS &&
        Math.random() < 0.3
      ) {
        lastChat = Date.now();
        const a = await api(
          origin,
          '/roundLesson/message',
          {
            partitionKey: pick([...held]),
            msg: `${this.tag} ${++this.seq}`,
            sender: me.id,
          },
          tok,
        );
        this.chat[this.note(a, 'chat')]++;
        continue;
      }
      const lesson = pick(this.world.lessons);
      const had = held.has(lesson.id);
      const a = await api(
        origin,
        had ? '/schedule/cancel' : '/schedule/reserve',
        { id: lesson.id },
        tok,
      );
      const o = this.note(a, had ? 'cancel' : 'reserve');
      if (o === 'ack') {
        if (had) {
          held.delete(lesson.id);
          this.cancelled++;
        } else {
          held.add(lesson.id);
          this.reserved++;
        }
      } else if (o === 'unknown') {
        this.unknownChanges++;
        if (a.status === 0) await sleep(50);
        await this.resync(origin, me, stop);
      }
    }
  }

  async pro(origin: string, me: Member, stop: () => boolean) {
    const own = this.world.lessons.filter((l) => l.pro.id === me.id);
    const tok = token(me);
    while (!stop()) {
      await sleep(CHAT_EVERY_MS + rand(CHAT_EVERY_MS));
      if (stop()) return;
      const a = await api(
        origin,
        '/roundLesson/message',
        {
          partitionKey: pick(own).id,
          msg: `${this.tag} ${++this.seq}`,
          sender: me.id,
        },
        tok,
      );
      this.chat[this.note(a, 'chat')]++;
      if (a.status === 0) await sleep(50);
    }
  }

  /** Every member's calls until `stop()`. */
  run(origin: string, stop: () => boolean): Promise<unknown> {
    return Promise.all([
      ...this.world.amateurs.map((m) => this.amateur(origin, m, stop)),
      ...this.world.pros.map((m) => this.pro(origin, m, stop)),
    ]);
  }
}

/** The outbox as admins see it: queued (and claimed) mails and the oldest one's age. */
async function watchQueue(origin: () => string, admin: Member) {
  const samples: { queued: number; ageS: number }[] = [];
  let on = true;
  const done = (async () => {
    while (on) {
      const a = await api(origin(), '/admin/mailOutbox', {}, token(admin));
      if (a.code === 'OK') {
        const b = a.body as { queued: number; oldestQueuedAt?: string };
        samples.push({
          queued: b.queued,
          ageS: b.oldestQueuedAt
            ? (Date.now() - Date.parse(b.oldestQueuedAt)) / 1000
            : 0,
        });
      }
      await sleep(2_000);
    }
  })();
  return {
    samples,
    async stop() {
      on = false;
      await done;
    },
  };
}

/** Waits until the outbox holds nothing queued or claimed; false on time-out. */
async function drained(
  origin: string,
  adminToken: string,
  timeoutMs: number,
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const a = await api(origin, '/admin/mailOutbox', {}, adminToken);
    if (a.code === 'OK' && (a.body as { queued: number }).queued === 0)
      return true;
    await sleep(500);
  }
  return false;
}

/** The hard checks every part shares: the outbox rows against the answers and against the sink. */
async function judge(
  t: TestContext,
  label: string,
  rows: OutboxRow[],
  load: Load | undefined,
  c: Comparison,
  allowedExtra = 0,
) {
  if (load) {
    const bounds = (n: number, want: number) =>
      n >= want && n <= want + load.unknownChanges;
    const kinds = {
      amateurReserved: kindCount(rows, SUBJECT.amateurReserved),
      proReserved: kindCount(rows, SUBJECT.proReserved),
      amateurCancelled: kindCount(rows, SUBJECT.amateurCancelled),
      proCancelled: kindCount(rows, SUBJECT.proCancelled),
    };
    await check(
      t,
      bounds(kinds.amateurReserved, load.reserved) &&
        bounds(kinds.proReserved, load.reserved) &&
        bounds(kinds.amateurCancelled, load.cancelled) &&
        bounds(kinds.proCancelled, load.cancelled),
      `${label}: the outbox holds both mails of each acknowledged change (reservations ${load.reserved}, cancellations ${load.cancelled}, unknown outcomes ${load.unknownChanges}; rows ${JSON.stringify(kinds)})`,
    );
    await check(
      t,
      load.serverErrors.length === 0,
      `${label}: no 5xx other than 503 (${load.serverErrors.slice(0, 5).join('; ')})`,
    );
  }
  await check(
    t,
    Object.keys(c.unsent).length === 0,
    `${label}: every outbox row sent, none queued, claimed or dead (${c.sent} of ${c.rows} sent; others ${JSON.stringify(c.unsent)})`,
  );
  await check(
    t,
    c.lost.length === 0,
    `${label}: every mail the outbox sent arrived (${sum(c.lost)} missing: ${c.lost
      .slice(0, 3)
      .map(([k, n]) => `${show(k)} ×${n}`)
      .join('; ')})`,
  );
  await check(
    t,
    sum(c.extra) <= allowedExtra,
    `${label}: no mail arrived twice or without a row (${sum(c.extra)} extra copies, ${allowedExtra} explained by a kill between the SMTP server's 250 and 'sent': ${c.extra
      .slice(0, 3)
      .map(([k, n]) => `${show(k)} ×${n}`)
      .join('; ')})`,
  );
}

type Figures = {
  part: string;
  engine: string;
  loadS: number;
  acked: string;
  rows: number;
  received: number;
  extra: number;
  lost: number;
  dead: number;
  outageS: string;
  drainS: string;
  maxQueueAgeS: number;
  maxQueued: number | '–';
  maxAttempts: number;
};
const figures: Figures[] = [];

const baseEnv = (smtp: MailSink): Record<string, string> => ({
  SMTP_URL: smtp.url,
});

/** (a) The mail server away for OUTAGE_SECONDS from the start of the load. */
async function outage(t: TestContext, engine: Engine, s: Setup) {
  const sink = mailSink(await freePort());
  const env = { ...s.env, ...baseEnv(sink) };
  const server = await startServer(env);
  try {
    const tag = `outage-${engine}-${Date.now().toString(36)}`;
    const world = await setUp(server.origin, tag);
    const load = new Load(world, tag);
    const queue = await watchQueue(() => server.origin, world.admin);
    const t0 = Date.now();
    let stopped = false;
    const running = load.run(server.origin, () => stopped);
    const sinkUp = (async () => {
      await sleep(OUTAGE_SECONDS * 1000);
      await sink.start();
      return Date.now();
    })();
    await sleep(LOAD_SECONDS * 1000);
    stopped = true;
    await running;
    const loadS = (Date.now() - t0) / 1000;
    const upAt = await sinkUp;
    const ok = await drained(server.origin, token(world.admin), RETURN_WAIT_MS);
    const drainS = (Date.now() - upAt) / 1000;
    await queue.stop();
    await check(
      t,
      ok,
      `${engine} outage: the queue drained within ${RETURN_WAIT_MS / 1000} s of the mail server's return (${drainS.toFixed(0)} s)`,
    );
    // A copy that would come late or twice has time to show up.
    await sleep(3_000);
    const code = await server.stop();
    await check(t, code === 0, `${engine} outage: SIGTERM exits 0 (${code})`);
    const rows = await outboxRows(s);
    const c = compare(rows, sink.received);
    await judge(t, `${engine} outage`, rows, load, c);
    figures.push({
      part: `(a) SMTP down ${OUTAGE_SECONDS} s`,
      engine,
      loadS,
      acked: `${load.reserved} / ${load.cancelled} / ${load.chat.ack}`,
      rows: c.rows,
      received: c.received,
      extra: sum(c.extra),
      lost: sum(c.lost),
      dead: c.unsent.dead ?? 0,
      outageS: `${OUTAGE_SECONDS}`,
      drainS: drainS.toFixed(0),
      maxQueueAgeS: Math.round(c.maxAgeS),
      maxQueued: Math.max(0, ...queue.samples.map((x) => x.queued)),
      maxAttempts: c.maxAttempts,
    });
  } finally {
    await server.kill();
    await sink.stop();
  }
}

/** (b) kill -9 at random moments under load, the mail server up. */
async function crashes(t: TestContext, engine: Engine, s: Setup) {
  const sink = mailSink(await freePort());
  await sink.start();
  const env = { ...s.env, ...baseEnv(sink) };
  let server: ServerProcess = await startServer(env);
  try {
    const tag = `kill-${engine}-${Date.now().toString(36)}`;
    const world = await setUp(server.origin, tag);
    const load = new Load(world, tag);
    /** Rows claimed by a killed process, and when it died. */
    const claimedAtKill: { key: string; at: number }[] = [];
    const t0 = Date.now();
    let lastKill = 0;
    for (let cycle = 1; cycle <= KILLS; cycle++) {
      let stopped = false;
      const running = load.run(server.origin, () => stopped);
      await sleep(2_000 + rand(4_000));
      stopped = true;
      await server.kill();
      lastKill = Date.now();
      await running;
      for (const r of await outboxRows(s, `status = 'sending'`))
        claimedAtKill.push({ key: rowKey(r), at: lastKill });
      server = await startServer(env, server.port);
      for (const m of world.amateurs)
        await load.resync(server.origin, m, () => false);
    }
    // Some more load on the last instance, then the claims of the last kill expire.
    let stopped = false;
    const running = load.run(server.origin, () => stopped);
    await sleep(3_000);
    stopped = true;
    await running;
    const loadS = (Date.now() - t0) / 1000;
    const wait = Date.now();
    const ok = await drained(
      server.origin,
      token(world.admin),
      CLAIM_MS + LONGEST_WAIT_MS,
    );
    const drainS = (Date.now() - wait) / 1000;
    await check(
      t,
      ok,
      `${engine} kill -9: the queue drained (${drainS.toFixed(0)} s after the load, ${((Date.now() - lastKill) / 1000).toFixed(0)} s after the last kill)`,
    );
    await sleep(3_000);
    const code = await server.stop();
    await check(t, code === 0, `${engine} kill -9: SIGTERM exits 0 (${code})`);
    const rows = await outboxRows(s);
    const c = compare(rows, sink.received);
    // A second copy is explained by a row claimed at a kill whose first copy had arrived before it.
    let explained = 0;
    for (const [k, n] of c.extra) {
      const firstCopies = sink.received
        .filter((m) => keyOf(m.to, m.subject, m.text) === k)
        .map((m) => m.at);
      const windows = claimedAtKill.filter(
        (w) => w.key === k && firstCopies.some((at) => at <= w.at),
      ).length;
      explained += Math.min(n, windows);
    }
    await judge(t, `${engine} kill -9`, rows, load, c, explained);
    figures.push({
      part: `(b) ${KILLS} × kill -9`,
      engine,
      loadS,
      acked: `${load.reserved} / ${load.cancelled} / ${load.chat.ack}`,
      rows: c.rows,
      received: c.received,
      extra: sum(c.extra),
      lost: sum(c.lost),
      dead: c.unsent.dead ?? 0,
      outageS: `claimed at a kill: ${claimedAtKill.length}`,
      drainS: drainS.toFixed(0),
      maxQueueAgeS: Math.round(c.maxAgeS),
      maxQueued: '–',
      maxAttempts: c.maxAttempts,
    });
  } finally {
    await server.kill();
    await sink.stop();
  }
}

/** (c) Two instances running the jobs on one PostgreSQL database. */
async function twoInstances(t: TestContext, s: Setup) {
  const sink = mailSink(await freePort());
  await sink.start();
  const secondDir = tempDir('proam-mail-b-');
  const servers: ServerProcess[] = [];
  try {
    const today = japan(new Date()).date;
    const tomorrow = addDays(today, 1);
    const env = { ...s.env, ...baseEnv(sink) };

    // 17:30 in Japan: lessons tomorrow, reservations, chat; no job runs.
    const firstOffset = japanInstant(today, '17:30:00').getTime() - Date.now();
    const first = await startServer({
      ...env,
      JOB_INTERVAL_MS: '0',
      ...shiftedClockEnv(firstOffset),
    });
    servers.push(first);
    const tag = `jobs-${Date.now().toString(36)}`;
    const members = new Map<string, { mail: string; token: string }>();
    const member = async (mail: string): Promise<Member> => {
      const b = await login(first.origin, mail);
      members.set(b.user.id, { mail, token: b.token.accessToken });
      return b.user;
    };
    const amateurs: Member[] = [];
    const pros: Member[] = [];
    for (let i = 1; i <= 6; i++)
      amateurs.push(await member(`ama${i}@example.jp`));
    for (let i = 1; i <= 5; i++) pros.push(await member(`pro${i}@example.jp`));
    const call = async (p: string, body: unknown, who: Member) => {
      const a = await api(first.origin, p, body, members.get(who.id)!.token);
      if (a.code !== 'OK')
        throw new Error(`${p}: ${a.status} ${a.code ?? a.error}`);
      return a.body;
    };
    type JobLesson = Lesson & { members: Set<string>; senders: Set<string> };
    const lessons: JobLesson[] = [];
    for (const [i, pro] of pros.entries())
      for (const [start, end] of [
        ['05:00', '06:00'],
        ['21:00', '22:00'],
      ] as const) {
        const place = `${tag} コース${i + 1}-${start}`;
        const body = (await call(
          '/schedule/create',
          {
            date: tomorrow,
            startTime: start,
            endTime: end,
            place,
            capacity: 4,
            fee: 9_000,
          },
          pro,
        )) as { id: string };
        lessons.push({
          id: body.id,
          pro,
          place,
          members: new Set([pro.id]),
          senders: new Set(),
        });
      }
    for (const [i, a] of amateurs.entries())
      for (let k = 0; k < 3; k++) {
        const l = lessons[(i * 3 + k) % lessons.length]!;
        await call('/schedule/reserve', { id: l.id }, a);
        l.members.add(a.id);
      }
    // Each pro writes in their first lesson; each amateur in the first lesson they joined.
    for (const l of lessons.filter((_, i) => i % 2 === 0)) {
      await call(
        '/roundLesson/message',
        { partitionKey: l.id, msg: `${tag} pro`, sender: l.pro.id },
        l.pro,
      );
      l.senders.add(l.pro.id);
    }
    for (const [i, a] of amateurs.entries()) {
      const l = lessons[(i * 3) % lessons.length]!;
      await call(
        '/roundLesson/message',
        { partitionKey: l.id, msg: `${tag} ama`, sender: a.id },
        a,
      );
      l.senders.add(a.id);
    }
    const lastPost = Date.now();
    await first.stop();
    servers.length = 0;

    // Both instances on one clock that reaches 18:00 in Japan LEAD_MS from
    // now: by then both scan every 200 ms, so the first reminder scans after
    // 18:00 (and the digests, due 30 minutes after each message) race.
    const LEAD_MS = 30_000;
    const sixPm = Date.now() + LEAD_MS;
    const offset = japanInstant(today, '18:00:00').getTime() - sixPm;
    const jobsEnv = {
      ...env,
      JOB_INTERVAL_MS: '200',
      ...shiftedClockEnv(offset),
    };
    /** When, on this machine's clock, the last message has been unread for 30 minutes on theirs. */
    const digestsDue = lastPost + firstOffset + 30 * 60_000 - offset;
    // Side by side from the start (the schema is there: no migration to wait for).
    const started = await Promise.allSettled([
      startServer(jobsEnv),
      startServer({ ...jobsEnv, DATA_DIR: secondDir.dir }),
    ]);
    for (const r of started)
      if (r.status === 'fulfilled') servers.push(r.value);
    for (const r of started) if (r.status === 'rejected') throw r.reason;
    const upBeforeSixS = (sixPm - Date.now()) / 1000;
    await check(
      t,
      upBeforeSixS > 0,
      `PostgreSQL two instances: both up before 18:00 on their clock (${upBeforeSixS.toFixed(1)} s before)`,
    );
    await sleep(
      Math.max(0, Math.max(sixPm, digestsDue) - Date.now()) +
        JOB_SECONDS * 1000,
    );
    // A token of their clock: this process's would have expired on it.
    const admin = await login(
      servers[0]!.origin,
      'admin@example.jp',
      'proam-admin-2026',
    );
    const ok = await drained(
      servers[0]!.origin,
      admin.token.accessToken,
      60_000,
    );
    const sideBySideS = (Date.now() - sixPm) / 1000;
    await check(
      t,
      ok,
      `PostgreSQL two instances: the queue drained (${sideBySideS.toFixed(0)} s after 18:00 on their clock)`,
    );
    await sleep(2_000);
    for (const srv of servers) await srv.stop();

    const rows = await outboxRows(s);
    const ids = new Set(lessons.map((l) => l.id));
    const keys = new Map<string, number>();
    for (const r of rows)
      if (r.dedupe_key)
        keys.set(r.dedupe_key, (keys.get(r.dedupe_key) ?? 0) + 1);
    const wantKeys = lessons.flatMap((l) =>
      [...l.members].map((u) => `reminder:${l.id}:${u}`),
    );
    const missing = wantKeys.filter((k) => keys.get(k) !== 1);
    const strayKeys = [...keys.keys()].filter(
      (k) =>
        k.startsWith('reminder:') &&
        ids.has(k.split(':')[1]!) &&
        !wantKeys.includes(k),
    );
    await check(
      t,
      missing.length === 0 && strayKeys.length === 0,
      `PostgreSQL two instances: each reminder key of the lessons tomorrow exists exactly once (${wantKeys.length} expected; not once: ${missing.slice(0, 3).join(', ')}; unexpected: ${strayKeys.slice(0, 3).join(', ')})`,
    );
    // A digest is due to each member of a lesson where someone else wrote.
    const wantDigests = lessons.flatMap((l) =>
      [...l.members]
        .filter((u) => [...l.senders].some((x) => x !== u))
        .map((u) => `${l.id}|${u}`),
    );
    const digests = await readDatabase<{
      schedule_id: string;
      user_id: string;
    }>(s, `select schedule_id, user_id from chat_digests`);
    const digestSet = new Set(
      digests
        .filter((d) => ids.has(d.schedule_id))
        .map((d) => `${d.schedule_id}|${d.user_id}`),
    );
    const digestMails = (to: string, place: string) =>
      rows.filter(
        (r) =>
          r.subject.includes(SUBJECT.digest) &&
          r.to_address === to &&
          r.body.includes(`場所：${place}\n`),
      ).length;
    const badDigests = wantDigests.filter((d) => {
      const [sid, uid] = d.split('|') as [string, string];
      const place = lessons.find((l) => l.id === sid)!.place;
      return (
        !digestSet.has(d) || digestMails(members.get(uid)!.mail, place) !== 1
      );
    });
    await check(
      t,
      badDigests.length === 0 && digestSet.size === wantDigests.length,
      `PostgreSQL two instances: each due chat digest exists once (${wantDigests.length} expected, ${digestSet.size} claimed; not once: ${badDigests.slice(0, 3).join(', ')})`,
    );
    // And each reminder and digest mail (every mail of the run) arrived once.
    const c = compare(rows, sink.received);
    await judge(t, 'PostgreSQL two instances', rows, undefined, c);
    const reminders = rows.filter((r) => r.subject.includes(SUBJECT.reminder));
    figures.push({
      part: `(c) 2 instances, jobs every 200 ms, ${sideBySideS.toFixed(0)} s from 18:00`,
      engine: 'PostgreSQL',
      loadS: sideBySideS,
      acked: `reminders ${reminders.length} (${wantKeys.length} ours), digests ${digestSet.size}`,
      rows: c.rows,
      received: c.received,
      extra: sum(c.extra),
      lost: sum(c.lost),
      dead: c.unsent.dead ?? 0,
      outageS: '–',
      drainS: '–',
      maxQueueAgeS: Math.round(c.maxAgeS),
      maxQueued: '–',
      maxAttempts: c.maxAttempts,
    });
  } finally {
    for (const srv of servers) await srv.kill();
    await sink.stop();
    secondDir.remove();
  }
}

function print() {
  console.log(`\n### Mail outbox: outage, kill -9, two instances\n`);
  console.log(
    table(
      [
        'part',
        'engine',
        'load s',
        'acknowledged (reservations / cancellations / chat)',
        'outbox rows',
        'mails received',
        'extra copies',
        'lost',
        'dead',
        'outage s',
        'drain s (after SMTP back / after the load)',
        'max queue age s',
        'max queued',
        'max attempts',
      ],
      figures.map((f) => [
        f.part,
        f.engine,
        f.loadS.toFixed(0),
        f.acked,
        f.rows,
        f.received,
        f.extra,
        f.lost,
        f.dead,
        f.outageS,
        f.drainS,
        f.maxQueueAgeS,
        f.maxQueued,
        f.maxAttempts,
      ]),
    ),
  );
}

describe('mail outbox', () => {
  after(() => {
    keepAlive.destroy();
    if (figures.length > 0) print();
  });

  if (PARTS.has('outage'))
    for (const engine of ENGINES)
      it(`${engine}: every mail arrives once after a ${OUTAGE_SECONDS} s SMTP outage`, (t) =>
        onEngine(engine, 'proam_mail_a', (s) => outage(t, engine, s)));

  if (PARTS.has('kill'))
    for (const engine of ENGINES)
      it(`${engine}: every mail arrives through ${KILLS} kill -9 (twice only in the documented window)`, (t) =>
        onEngine(engine, 'proam_mail_b', (s) => crashes(t, engine, s)));

  if (PARTS.has('jobs'))
    it('PostgreSQL: two instances running the jobs queue each reminder and digest once', (t) =>
      onEngine('PostgreSQL', 'proam_mail_c', (s) => twoInstances(t, s)));
});
