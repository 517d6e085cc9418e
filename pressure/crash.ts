/**
 * Crash durability (docs/security.md DU-01, DU-04, DU-08), on PGlite and on a fresh
 * PostgreSQL database: the real server is killed with SIGKILL at random
 * moments while eleven members write (profiles, likes, reservations on
 * capacity-2 lessons, chat), 20 cycles, some kills landing in start-up
 * (recovery, migrations). Every write the server acknowledged (200 OK) must be
 * there after the restart, nothing that was never sent may appear, and the
 * invariants hold: reservations ≤ capacity and equal to reserved_count,
 * like_count = likes received, chat sort_keys unique, increasing, and in the
 * order the server acknowledged them. Then SIGTERM under load, 5 rounds: every
 * request sent before the signal gets an HTTP answer, and the writes it
 * acknowledged are kept. `npm run test:pressure:crash`.
 */
import path from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { newPglite } from '../apps/api/src/db/pglite.js';
import pg from 'pg';
import {
  api,
  check,
  demoMembers,
  ENGINES,
  keepAlive,
  ms,
  onEngine,
  percentile,
  rand,
  pick,
  sleep,
  spawnServer,
  sqlInvariants,
  startServer,
  table,
  token,
  type Answer,
  type Member,
  type Query,
} from './shared.js';

const CYCLES = Number(process.env.PRESSURE_CYCLES ?? 20);
const SIGTERM_ROUNDS = Number(process.env.PRESSURE_SIGTERM_ROUNDS ?? 5);
/** Every fifth cycle also kills the next start-up before it is ready. */
const STARTUP_KILL_EVERY = 5;
const FIRST_KEY = '0'.repeat(26);

type Kind = 'profile' | 'like' | 'reserve' | 'chat';
const KINDS: Kind[] = ['profile', 'like', 'reserve', 'chat'];
type Outcome = 'ack' | 'unknown' | 'rejected';

/** OK: applied. No HTTP answer, a 5xx or no envelope: may or may not be applied. Any other NG: not applied. */
function outcomeOf(a: Answer): Outcome {
  if (a.status === 200 && a.code === 'OK') return 'ack';
  if (a.status === 0 || a.status >= 500 || a.code === undefined)
    return 'unknown';
  return 'rejected';
}

type Lesson = { id: string; pro: Member; capacity: number };
type World = {
  amateurs: Member[];
  pros: Member[];
  admin: Member;
  lessons: Lesson[];
};
type AckedMessage = {
  lesson: string;
  key: string;
  msg: string;
  sender: string;
  start: number;
  end: number;
};
type Message = { sort_key: string; msg: string; sender: string };
type Schedule = {
  id: string;
  capacity: number;
  reservedCount: number;
  participants?: string[];
};

/**
 * What the database may hold, from the answers alone: for each fact the set
 * of values it can have (one value once acknowledged, more while a write's
 * outcome is unknown). Verification collapses each set to what it saw.
 */
class Model {
  bio = new Map<string, Set<string>>();
  liked = new Map<string, Set<boolean>>();
  reserved = new Map<string, Set<boolean>>();
  acked: AckedMessage[] = [];
  ackedTexts = new Set<string>();
  /** Posts without an answer, until a check has looked for them. */
  unknownTexts = new Set<string>();
  /** Posts without an answer that a check found stored: they may stay. */
  appliedTexts = new Set<string>();
  unknownBios = new Set<string>();
  tally = Object.fromEntries(
    KINDS.map((k) => [k, { ack: 0, unknown: 0, rejected: 0 }]),
  ) as Record<Kind, Record<Outcome, number>>;
  /** 5xx answers other than 503 (a bug if any). */
  serverErrors: string[] = [];
  seq = 0;

  constructor(readonly tag: string) {}

  set<T>(facts: Map<string, Set<T>>, key: string, value: T, o: Outcome) {
    if (o === 'ack') facts.set(key, new Set([value]));
    else if (o === 'unknown') {
      const s = facts.get(key) ?? new Set<T>();
      s.add(value);
      facts.set(key, s);
    }
  }
  record(kind: Kind, a: Answer, what: string): Outcome {
    const o = outcomeOf(a);
    this.tally[kind][o]++;
    if (a.status >= 500 && a.status !== 503)
      this.serverErrors.push(`${what}: ${a.status} ${a.code ?? ''}`);
    return o;
  }
}

/** One member's sequential writes until `stop()`; each answer is folded into the model. */
async function writer(
  origin: string,
  me: Member,
  world: World,
  m: Model,
  stop: () => boolean,
  onAnswer?: (a: Answer) => void,
): Promise<void> {
  const tok = token(me);
  const call = async (p: string, body: unknown) => {
    const a = await api(origin, p, body, tok, { timeoutMs: 20_000 });
    onAnswer?.(a);
    // Refused connections come back at once: don't spin while the server is away.
    if (a.status === 0) await sleep(5);
    return a;
  };
  const own = world.lessons.filter((l) => l.pro.id === me.id);
  while (!stop()) {
    const r = Math.random();
    if (r < 0.2) {
      const bio = `${m.tag} bio ${++m.seq}`;
      const a = await call('/user/update', { bio });
      const o = m.record('profile', a, '/user/update');
      m.set(m.bio, me.id, bio, o);
      if (o === 'unknown') m.unknownBios.add(bio);
      continue;
    }
    if (me.type === 'pro' || r >= 0.8) {
      // Chat: pros in their lessons, amateurs where they surely hold a place.
      const places =
        me.type === 'pro'
          ? own
          : world.lessons.filter((l) => {
              const s = m.reserved.get(`${me.id}|${l.id}`);
              return s?.size === 1 && s.has(true);
            });
      if (places.length > 0) {
        const lesson = pick(places);
        const msg = `${m.tag} msg ${++m.seq}`;
        const a = await call('/roundLesson/message', {
          partitionKey: lesson.id,
          msg,
          sender: me.id,
        });
        const o = m.record('chat', a, '/roundLesson/message');
        if (o === 'ack') {
          const body = a.body as Message;
          m.acked.push({
            lesson: lesson.id,
            key: body.sort_key,
            msg,
            sender: me.id,
            start: a.startedAt,
            end: a.startedAt + a.ms,
          });
          m.ackedTexts.add(msg);
        } else if (o === 'unknown') m.unknownTexts.add(msg);
        continue;
      }
      if (me.type === 'pro') continue;
    }
    if (r < 0.5) {
      const pro = pick(world.pros);
      const key = `${me.id}|${pro.id}`;
      const now = m.liked.get(key) ?? new Set([false]);
      const create = now.size === 2 ? Math.random() < 0.5 : !now.has(true);
      const a = await call(create ? '/user/likeCreate' : '/user/likeDelete', {
        userId: me.id,
        likeUserId: pro.id,
      });
      m.set(m.liked, key, create, m.record('like', a, 'like'));
      continue;
    }
    const lesson = pick(world.lessons);
    const key = `${me.id}|${lesson.id}`;
    const now = m.reserved.get(key) ?? new Set([false]);
    const reserve = now.size === 2 ? Math.random() < 0.5 : !now.has(true);
    const a = await call(reserve ? '/schedule/reserve' : '/schedule/cancel', {
      id: lesson.id,
    });
    const o = m.record('reserve', a, reserve ? 'reserve' : 'cancel');
    // A full lesson or a cancel without a place both say: no place now.
    if (a.code === 'ScheduleFull' || (!reserve && a.code === 'Forbidden'))
      m.reserved.set(key, new Set([false]));
    else m.set(m.reserved, key, reserve, o);
  }
}

/** Readers beside the writers during the SIGTERM rounds. */
async function reader(
  origin: string,
  me: Member,
  world: World,
  stop: () => boolean,
  onAnswer: (a: Answer) => void,
): Promise<void> {
  const tok = token(me);
  while (!stop()) {
    const pro = pick(world.pros);
    const r = Math.random();
    const a =
      r < 0.33
        ? await api(origin, '/user/read', { id: pro.id }, tok)
        : r < 0.66
          ? await api(origin, '/schedule/getActive', { userId: pro.id }, tok)
          : await api(origin, '/news/readAll', { size: 20 });
    onAnswer(a);
    if (a.status === 0) await sleep(5);
  }
}

async function setUp(origin: string, tag: string): Promise<World> {
  const { amateurs, pros, admin } = await demoMembers(origin);
  const lessons: Lesson[] = [];
  for (const [i, pro] of pros.entries()) {
    for (const [start, end] of [
      ['09:00', '12:00'],
      ['13:00', '16:00'],
    ] as const) {
      const a = await api(
        origin,
        '/schedule/create',
        {
          date: `2099-01-${String(10 + i).padStart(2, '0')}`,
          startTime: start,
          endTime: end,
          place: `${tag} コース`,
          capacity: 2,
          fee: 10_000,
        },
        token(pro),
      );
      if (a.code !== 'OK')
        throw new Error(`schedule/create: ${a.status} ${a.code}`);
      lessons.push({ id: (a.body as { id: string }).id, pro, capacity: 2 });
    }
  }
  return { amateurs, pros, admin, lessons };
}

type Check = {
  lost: string[];
  phantom: string[];
  invariant: string[];
  unknownApplied: number;
};

/** Reads everything back through the restarted server and compares it with the model. */
async function verify(origin: string, w: World, m: Model): Promise<Check> {
  const c: Check = { lost: [], phantom: [], invariant: [], unknownApplied: 0 };
  const admin = token(w.admin);
  const must = async (p: string, body: unknown, tok: string) => {
    const a = await api(origin, p, body, tok, { timeoutMs: 30_000 });
    if (a.code !== 'OK')
      throw new Error(`verify ${p}: ${a.status} ${a.code ?? a.error}`);
    return a.body;
  };
  const members = [...w.amateurs, ...w.pros];

  for (const u of members) {
    const { bio = '' } = (await must('/user/read', { id: u.id }, admin)) as {
      bio?: string;
    };
    const allowed = m.bio.get(u.id);
    if (allowed && !allowed.has(bio))
      c.lost.push(
        `profile of ${u.id}: "${bio}", expected one of ${[...allowed].join(' / ')}`,
      );
    if (allowed && allowed.size > 1 && m.unknownBios.has(bio))
      c.unknownApplied++;
    m.bio.set(u.id, new Set([bio]));
  }

  for (const a of w.amateurs) {
    const given = (await must(
      '/user/like',
      { userType: 'amature', userId: a.id },
      admin,
    )) as { likeUserId: string }[];
    const liked = new Set(given.map((l) => l.likeUserId));
    for (const p of w.pros) {
      const key = `${a.id}|${p.id}`;
      const allowed = m.liked.get(key);
      const now = liked.has(p.id);
      if (allowed && !allowed.has(now))
        c.lost.push(`like ${key}: ${now}, expected ${[...allowed].join('/')}`);
      m.liked.set(key, new Set([now]));
    }
  }

  for (const u of members) {
    const count = (await must(
      '/user/likeCount',
      { userType: u.type, userId: u.id },
      admin,
    )) as number;
    const rows = (await must('/user/likedBy', { userId: u.id }, admin)) as [];
    if (count !== rows.length)
      c.invariant.push(
        `like_count of ${u.id} is ${count}, likes received ${rows.length}`,
      );
  }

  for (const p of w.pros) {
    const list = (await must(
      '/schedule/getById',
      { userId: p.id },
      token(p),
    )) as Schedule[];
    for (const l of w.lessons.filter((x) => x.pro.id === p.id)) {
      const s = list.find((x) => x.id === l.id);
      if (!s) {
        c.lost.push(`lesson ${l.id} is missing`);
        continue;
      }
      const people = new Set(s.participants ?? []);
      if (people.size > s.capacity)
        c.invariant.push(
          `lesson ${l.id}: ${people.size} reservations, capacity ${s.capacity}`,
        );
      if (people.size !== s.reservedCount)
        c.invariant.push(
          `lesson ${l.id}: reservedCount ${s.reservedCount}, reservations ${people.size}`,
        );
      for (const a of w.amateurs) {
        const key = `${a.id}|${l.id}`;
        const allowed = m.reserved.get(key);
        const now = people.has(a.id);
        if (allowed && !allowed.has(now))
          c.lost.push(
            `reservation ${key}: ${now}, expected ${[...allowed].join('/')}`,
          );
        m.reserved.set(key, new Set([now]));
      }
    }
  }

  const found = new Map<string, Message>();
  for (const l of w.lessons) {
    let after = FIRST_KEY;
    let prev = '';
    for (;;) {
      const page = (await must(
        '/roundLesson/getMessage',
        { partitionKey: l.id, after, size: 200 },
        token(l.pro),
      )) as Message[];
      for (const msg of page) {
        if (msg.sort_key <= prev)
          c.invariant.push(
            `lesson ${l.id}: sort_key ${msg.sort_key} after ${prev} (not increasing/unique)`,
          );
        prev = msg.sort_key;
        found.set(`${l.id}|${msg.sort_key}`, msg);
        if (msg.msg.startsWith(`${m.tag} `)) {
          if (m.unknownTexts.has(msg.msg)) {
            c.unknownApplied++;
            m.appliedTexts.add(msg.msg);
          } else if (!m.ackedTexts.has(msg.msg) && !m.appliedTexts.has(msg.msg))
            c.phantom.push(`message "${msg.msg}" was never sent`);
        }
      }
      if (page.length < 200) break;
      after = page[page.length - 1]!.sort_key;
    }
  }
  for (const a of m.acked) {
    const got = found.get(`${a.lesson}|${a.key}`);
    if (!got || got.msg !== a.msg || got.sender !== a.sender)
      c.lost.push(`acknowledged message ${a.lesson}/${a.key} "${a.msg}"`);
  }
  // Once a post is acknowledged, every post sent after that sorts after it.
  const byLesson = new Map<string, AckedMessage[]>();
  for (const a of m.acked) {
    const list = byLesson.get(a.lesson) ?? [];
    list.push(a);
    byLesson.set(a.lesson, list);
  }
  for (const [lesson, acks] of byLesson) {
    const ends = [...acks].sort((x, y) => x.end - y.end);
    let i = 0;
    let maxKey = '';
    for (const b of [...acks].sort((x, y) => x.start - y.start)) {
      while (i < ends.length && ends[i]!.end < b.start) {
        if (ends[i]!.key > maxKey) maxKey = ends[i]!.key;
        i++;
      }
      if (maxKey && b.key <= maxKey)
        c.invariant.push(
          `lesson ${lesson}: ${b.key} was sent after ${maxKey} was acknowledged but sorts before it`,
        );
    }
  }
  // Unknown outcomes are settled now: what was not stored must never appear later.
  m.unknownTexts.clear();
  m.unknownBios.clear();
  return c;
}

type EngineFigures = {
  engine: string;
  cycles: number;
  startupKills: number;
  tally: Model['tally'];
  unknownApplied: number;
  lost: number;
  phantom: number;
  invariant: number;
  restartMs: number[];
  serverErrors: number;
  sigterm: SigtermFigures;
};
type SigtermFigures = {
  rounds: number;
  inFlight: number;
  inFlightFailed: number;
  /** Of those, on a connection opened for the request (perhaps still in the accept queue). */
  inFlightFailedNew: number;
  failures: string[];
  after: { answered: number; refused: number };
  non200InFlight: Record<string, number>;
  exitCodes: (number | string)[];
  drainMs: number[];
};

async function engine(
  t: TestContext,
  name: string,
  env: Record<string, string>,
  sql: {
    live?: Query;
    after: () => Promise<{ q: Query; close(): Promise<void> }>;
  },
): Promise<EngineFigures> {
  const tag = `crash-${name}-${Date.now().toString(36)}`;
  let server = await startServer(env);
  const world = await setUp(server.origin, tag);
  const m = new Model(tag);
  const f: EngineFigures = {
    engine: name,
    cycles: 0,
    startupKills: 0,
    tally: m.tally,
    unknownApplied: 0,
    lost: 0,
    phantom: 0,
    invariant: 0,
    restartMs: [],
    serverErrors: 0,
    sigterm: {
      rounds: 0,
      inFlight: 0,
      inFlightFailed: 0,
      inFlightFailedNew: 0,
      failures: [],
      after: { answered: 0, refused: 0 },
      non200InFlight: {},
      exitCodes: [],
      drainMs: [],
    },
  };
  const judge = async (label: string) => {
    const c = await verify(server.origin, world, m);
    const inv = sql.live ? await sqlInvariants(sql.live) : [];
    f.lost += c.lost.length;
    f.phantom += c.phantom.length;
    f.invariant += c.invariant.length + inv.length;
    f.unknownApplied += c.unknownApplied;
    await check(
      t,
      c.lost.length === 0,
      `${name} ${label}: acknowledged writes present (${c.lost.slice(0, 5).join('; ')})`,
    );
    await check(
      t,
      c.phantom.length === 0,
      `${name} ${label}: no write that was never sent (${c.phantom.slice(0, 5).join('; ')})`,
    );
    await check(
      t,
      c.invariant.length + inv.length === 0,
      `${name} ${label}: invariants hold (${[...c.invariant, ...inv].slice(0, 5).join('; ')})`,
    );
  };
  const restart = async () => {
    const t0 = performance.now();
    server = await startServer(env, server.port);
    f.restartMs.push(performance.now() - t0);
  };

  try {
    await judge('baseline');
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      let stopped = false;
      const members = [...world.amateurs, ...world.pros];
      const writers = members.map((u) =>
        writer(server.origin, u, world, m, () => stopped),
      );
      await sleep(300 + rand(2700));
      stopped = true;
      await server.kill();
      await Promise.all(writers);
      if (cycle % STARTUP_KILL_EVERY === 0) {
        // Compound failure: die again while recovering / migrating.
        const early = await spawnServer(env, server.port);
        await sleep(100 + rand(1400));
        await early.kill();
        f.startupKills++;
      }
      let up = true;
      try {
        await restart();
      } catch (e) {
        up = false;
        await check(
          t,
          false,
          `${name} cycle ${cycle}: restart after kill -9 (${String(e)})`,
        );
      }
      if (!up) break;
      f.cycles++;
      await judge(`cycle ${cycle}`);
    }

    // The kill -9 table counts the kill cycles only; SIGTERM rounds have their own.
    f.tally = structuredClone(m.tally);
    for (let round = 1; round <= SIGTERM_ROUNDS; round++) {
      const st = f.sigterm;
      let stopped = false;
      const answers: Answer[] = [];
      const note = (a: Answer) => answers.push(a);
      const members = [...world.amateurs, ...world.pros];
      const load = [
        ...members.map((u) =>
          writer(server.origin, u, world, m, () => stopped, note),
        ),
        ...members
          .slice(0, 8)
          .map((u) => reader(server.origin, u, world, () => stopped, note)),
      ];
      await sleep(500 + rand(1500));
      const signalAt = performance.now();
      const code = await server.stop();
      st.drainMs.push(performance.now() - signalAt);
      st.exitCodes.push(code);
      stopped = true;
      await Promise.all(load);
      st.rounds++;
      for (const a of answers) {
        // In flight: its last byte was on the socket before the signal was sent.
        if (a.sentAt !== undefined && a.sentAt < signalAt) {
          st.inFlight++;
          if (a.status === 0) {
            st.inFlightFailed++;
            if (!a.reused) st.inFlightFailedNew++;
            st.failures.push(
              `${a.error} on a ${a.reused ? 'kept-alive' : 'new'} connection, sent ${(signalAt - a.sentAt).toFixed(1)} ms before SIGTERM`,
            );
          } else if (a.status !== 200) {
            const k = `${a.status} ${a.code ?? 'no envelope'}`;
            st.non200InFlight[k] = (st.non200InFlight[k] ?? 0) + 1;
          }
        } else if (a.status === 0) st.after.refused++;
        else st.after.answered++;
      }
      await check(
        t,
        code === 0,
        `${name} SIGTERM round ${round}: exit code 0 (got ${code})`,
      );
      await restart();
      await judge(`after SIGTERM round ${round}`);
    }
    await check(
      t,
      f.sigterm.inFlightFailed === 0,
      `${name}: every request in flight at SIGTERM got an answer (${f.sigterm.failures.slice(0, 5).join('; ')})`,
    );
    f.serverErrors = m.serverErrors.length;
    await check(
      t,
      m.serverErrors.length === 0,
      `${name}: no 5xx other than 503 (${m.serverErrors.slice(0, 5).join('; ')})`,
    );
  } finally {
    const code = await server.stop();
    await check(t, code === 0, `${name}: final SIGTERM exits 0 (got ${code})`);
  }
  const db = await sql.after();
  try {
    const inv = await sqlInvariants(db.q);
    f.invariant += inv.length;
    await check(
      t,
      inv.length === 0,
      `${name}: SQL invariants after the last stop (${inv.slice(0, 5).join('; ')})`,
    );
  } finally {
    await db.close();
  }
  return f;
}

function print(all: EngineFigures[]): void {
  console.log(
    `\n### Crash durability: kill -9 at random moments during mixed writes\n`,
  );
  console.log(
    table(
      [
        'engine',
        'kill -9 cycles',
        'kills in start-up',
        'acknowledged (profile / like / reservation / chat)',
        'unknown outcome (no answer)',
        'of those found applied (posts, profiles)',
        'rejected (409/429…)',
        'lost acknowledged',
        'never-sent found',
        'invariant violations',
        'restart p50 / max ms',
      ],
      all.map((f) => [
        f.engine,
        f.cycles,
        f.startupKills,
        KINDS.map((k) => f.tally[k].ack).join(' / '),
        KINDS.reduce((n, k) => n + f.tally[k].unknown, 0),
        f.unknownApplied,
        KINDS.reduce((n, k) => n + f.tally[k].rejected, 0),
        f.lost,
        f.phantom,
        f.invariant,
        `${ms(percentile(f.restartMs, 50))} / ${ms(Math.max(...f.restartMs))}`,
      ]),
    ),
  );
  console.log(`\n### SIGTERM under load (11 writers + 8 readers)\n`);
  console.log(
    table(
      [
        'engine',
        'rounds',
        'requests in flight at SIGTERM',
        'of those without an answer (on a new connection)',
        'in-flight non-200 answers',
        'after SIGTERM: answered / refused',
        'drain ms p50 / max',
        'exit codes',
      ],
      all.map(({ engine: e, sigterm: s }) => [
        e,
        s.rounds,
        s.inFlight,
        `${s.inFlightFailed} (${s.inFlightFailedNew})`,
        Object.entries(s.non200InFlight)
          .map(([k, n]) => `${k}: ${n}`)
          .join(', ') || '0',
        `${s.after.answered} / ${s.after.refused}`,
        `${ms(percentile(s.drainMs, 50))} / ${ms(Math.max(...s.drainMs))}`,
        [...new Set(s.exitCodes)].join(','),
      ]),
    ),
  );
}

describe('crash durability', () => {
  const all: EngineFigures[] = [];
  after(() => {
    keepAlive.destroy();
    if (all.length > 0) print(all);
  });

  for (const name of ENGINES)
    it(`${name} keeps every acknowledged write through kill -9 and SIGTERM`, (t) =>
      onEngine(name, 'proam_crash', async ({ env, dataDir, databaseUrl }) => {
        if (!databaseUrl) {
          // After the last stop, the embedded database is opened here.
          const afterStop = async () => {
            const db = newPglite(path.join(dataDir, 'pgdata'));
            return {
              q: async (s: string) =>
                (await db.query<Record<string, unknown>>(s)).rows,
              close: () => db.close(),
            };
          };
          all.push(await engine(t, name, env, { after: afterStop }));
          return;
        }
        const live = new pg.Client({ connectionString: databaseUrl });
        try {
          await live.connect();
          const q: Query = async (s) => (await live.query(s)).rows;
          all.push(
            await engine(t, name, env, {
              live: q,
              after: async () => ({ q, close: async () => undefined }),
            }),
          );
        } finally {
          await live.end();
        }
      }));
});
