/**
 * Two API instances on one PostgreSQL database behind Debian's nginx running
 * the shipped deploy/nginx/proam.conf.template (the file compose.yaml mounts)
 * inside a main config and prefix of its own in a temp folder, on a loopback
 * port. They share rate limits through Redis (REDIS_URL) and trust nginx's
 * X-Forwarded-For (TRUST_PROXY=127.0.0.1). Clients connect from their own
 * loopback addresses (127.x.y.z) so the API sees distinct clients. Checks:
 * - a login, then calls landing on both instances (stateless sessions);
 * - /metrics answered by an instance (METRICS_TOKEN) is a 404 through nginx;
 * - refresh-token rotation whichever instance answers;
 * - one rate-limit budget across instances (per address and per member), a
 *   spoofed X-Forwarded-For doesn't escape it;
 * - chat fan-out: a post handled by one instance reaches a socket on the other;
 * - SIGTERM to one instance while members post: no acknowledged post lost, its
 *   sockets reconnect through nginx to the other and catch up by last sort_key.
 * `npm run test:pressure:nginx`; exit code 1 on any failed check.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { catchUpAfter } from '@proam/contract';
import {
  type ExitStatus,
  waitForHttp,
} from '../test-support/server-process.js';
import {
  api,
  check,
  demoMembers,
  freePort,
  keepAlive,
  login,
  ms,
  percentile,
  REDIS_URL,
  request,
  sleep,
  startServer,
  table,
  tempDatabase,
  tempDir,
  token,
  type TempDatabase,
  type Answer,
  type LoginBody,
  type Member,
  type ServerProcess,
} from './shared.js';

type Dir = ReturnType<typeof tempDir>;

const NGINX =
  ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) =>
    existsSync(p),
  ) ?? 'nginx';
const FAILOVER_POSTS_PER_S = 10;
/** Lets the instances answer /metrics, so a 404 through nginx is nginx's doing. */
const METRICS_TOKEN = `pressure-metrics-${randomInt(1e9)}`;
const FAILOVER_SECONDS = 8;
/** The pro and the three players of the chat lesson. */
const FAILOVER_SENDERS = 4;

/** A loopback address of its own per client and run (Redis counters outlive a run). */
const clientAddress = () =>
  `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** The nginx configuration that is shipped (compose.yaml mounts it too). */
const SHIPPED_NGINX_CONF = path.join(
  import.meta.dirname,
  '..',
  'deploy',
  'nginx',
  'proam.conf.template',
);

/**
 * Fills the shipped template's `${PROAM_*}` placeholders as the official nginx
 * image's envsubst does (NGINX_ENVSUBST_FILTER=^PROAM_), leaving nginx's own
 * `$variables` alone; a placeholder without a value is an error, not an empty
 * directive.
 */
function fillNginxTemplate(
  template: string,
  values: Record<string, string>,
): string {
  return template.replace(/\$\{(PROAM_[A-Z0-9_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`no value for \${${name}} in the nginx template`);
    return value;
  });
}

/**
 * A main config of the test's own (prefix, pid and temp folders in `dir`, no
 * daemon) around the shipped http-level file, filled for loopback ports.
 */
function nginxConf(dir: string, port: number, upstreams: number[]): string {
  const [one, two] = upstreams;
  if (upstreams.length !== 2 || one === undefined || two === undefined)
    throw new Error('the shipped nginx template has two API instances');
  const shipped = fillNginxTemplate(readFileSync(SHIPPED_NGINX_CONF, 'utf8'), {
    PROAM_LISTEN: `127.0.0.1:${port}`,
    PROAM_API_1: `127.0.0.1:${one}`,
    PROAM_API_2: `127.0.0.1:${two}`,
    // No bucket here: the instances serve DATA_DIR/media themselves.
    PROAM_MEDIA_UPSTREAM: 'http://api',
  });
  writeFileSync(path.join(dir, 'proam.conf'), shipped);
  return `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # Which instance answered, for the checks (test-only, so not in the shipped
  # file; inherited by every location of it that sets no header of its own).
  add_header X-Upstream $upstream_addr always;
  include ${dir}/proam.conf;
}
`;
}

async function startNginx(
  dir: string,
  port: number,
  upstreams: number[],
): Promise<ChildProcess> {
  const probe = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  if (probe.error)
    throw new Error(
      `nginx not found (${NGINX}): apt-get install -y nginx (or nginx-light)`,
    );
  // Worker processes run as nobody when started by root.
  chmodSync(dir, 0o755);
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConf(dir, port, upstreams));
  const child = spawn(
    NGINX,
    ['-p', `${dir}/`, '-c', conf, '-e', `${dir}/error.log`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'SIGKILL')),
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, {
      timeoutMs: 10_000,
      exited,
    });
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`nginx did not come up: ${String(e)}`, { cause: e });
  }
  return child;
}

const upstreamOf = (a: Answer) => String(a.headers['x-upstream'] ?? '?');

type SocketMessage = {
  type: string;
  body: { partitionKey?: string; sort_key?: string };
};

/** A chat member's socket that reconnects through nginx and catches up from its last sort_key, as the web app does. */
class ChatClient {
  received = new Map<string, number>();
  lastKey = '';
  firstOpen = 0;
  upstreams: string[] = [];
  reconnects = 0;
  reconnectMs: number[] = [];
  caughtUp = 0;
  failed = '';
  private ws: WebSocket | undefined;
  private closing = false;

  constructor(
    private readonly origin: string,
    private readonly wsUrl: string,
    readonly member: Member,
    private readonly lesson: string,
    private readonly address: string,
  ) {}

  get upstream(): string {
    return this.upstreams[this.upstreams.length - 1] ?? '?';
  }

  private add(key: string) {
    this.received.set(key, (this.received.get(key) ?? 0) + 1);
    if (key > this.lastKey) this.lastKey = key;
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(
        this.wsUrl,
        ['proam', `bearer.${token(this.member)}`],
        { localAddress: this.address },
      );
      ws.once('upgrade', (res) =>
        this.upstreams.push(String(res.headers['x-upstream'] ?? '?')),
      );
      ws.on('message', (data) => {
        const e = JSON.parse(String(data)) as SocketMessage;
        if (
          e.type === 'message' &&
          e.body.partitionKey === this.lesson &&
          e.body.sort_key
        )
          this.add(e.body.sort_key);
      });
      ws.once('open', () => {
        if (!this.firstOpen) this.firstOpen = performance.now();
        this.ws = ws;
        ws.on('error', () => undefined); // followed by 'close', handled there
        ws.once('close', () => void this.lost());
        resolve();
      });
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
  }

  /** The server went away: reconnect (through nginx), then fetch what was missed. */
  private async lost(): Promise<void> {
    if (this.closing) return;
    const t = performance.now();
    for (let attempt = 0; attempt < 50; attempt++) {
      await sleep(200);
      try {
        await this.open();
        this.reconnects++;
        this.reconnectMs.push(performance.now() - t);
        await this.catchUp();
        return;
      } catch {
        /* the other instance may still be taking over: try again */
      }
    }
    this.failed = 'could not reconnect';
  }

  async catchUp(): Promise<void> {
    for (;;) {
      const a = await api(
        this.origin,
        '/roundLesson/getMessage',
        {
          partitionKey: this.lesson,
          // As the web app does: from a little before the newest key seen,
          // which may have overtaken an older post from the other instance.
          ...(this.lastKey ? { after: catchUpAfter(this.lastKey) } : {}),
          size: 200,
        },
        token(this.member),
        { localAddress: this.address },
      );
      if (a.code !== 'OK') {
        this.failed = `catch-up ${a.status} ${a.code ?? a.error}`;
        return;
      }
      const page = a.body as { sort_key: string }[];
      for (const m of page) {
        if (!this.received.has(m.sort_key)) this.caughtUp++;
        this.add(m.sort_key);
      }
      if (page.length < 200) return;
    }
  }

  close() {
    this.closing = true;
    this.ws?.close();
  }
}

describe('two instances behind nginx', () => {
  let dbase: TempDatabase | undefined;
  const dirs = ['proam-nginx-a-', 'proam-nginx-b-', 'proam-nginx-'].map(
    tempDir,
  );
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let nginx: ChildProcess | undefined;
  let origin = '';
  let upA = '';
  let upB = '';
  /** This run's client address: the checks' calls come from it. */
  const via = { localAddress: clientAddress() };
  const figures: (string | number)[][] = [];
  let failoverRow: (string | number)[] | undefined;
  /** ama1's login through nginx, for the session and refresh checks. */
  let session: LoginBody;

  before(async () => {
    dbase = await tempDatabase('proam_nginx');
    const [dirA, dirB, dirN] = dirs as [Dir, Dir, Dir];
    const portN = await freePort();
    const env = {
      DATABASE_URL: dbase.url,
      REDIS_URL,
      TRUST_PROXY: '127.0.0.1',
      SHED_EVENT_LOOP_DELAY_MS: '0',
      METRICS_TOKEN,
    };
    a = await startServer({ ...env, DATA_DIR: dirA.dir }); // migrates, seeds
    b = await startServer({ ...env, DATA_DIR: dirB.dir });
    upA = `127.0.0.1:${a.port}`;
    upB = `127.0.0.1:${b.port}`;
    nginx = await startNginx(dirN.dir, portN, [a.port, b.port]);
    origin = `http://127.0.0.1:${portN}`;
    session = await login(origin, 'ama1@example.jp', undefined, via);
  });

  after(async () => {
    try {
      console.log(
        `\n### Two API instances behind nginx (PostgreSQL, Redis rate limits, TRUST_PROXY=127.0.0.1)\n`,
      );
      console.log(table(['check', 'result', 'answered by'], figures));
      if (failoverRow) {
        console.log(
          `\n### SIGTERM to one instance while ${FAILOVER_SENDERS} members post ${FAILOVER_POSTS_PER_S}/s for ${FAILOVER_SECONDS} s\n`,
        );
        console.log(
          table(
            [
              'posts sent',
              'acknowledged',
              'not OK',
              'lost acknowledged',
              'A drained and exited after',
              'sockets moved A → B',
              'reconnect ms p50 / max',
              'caught up by getMessage',
              'missing on any socket',
              'delivered twice',
            ],
            [failoverRow],
          ),
        );
      }
    } finally {
      await a?.stop();
      await b?.stop();
      if (nginx && nginx.exitCode === null) {
        const gone = new Promise((r) => nginx!.once('exit', r));
        nginx.kill('SIGQUIT');
        await gone;
      }
      keepAlive.destroy();
      await dbase?.drop();
      for (const d of dirs) d.remove();
    }
  });

  it('serves the calls of one login on both instances', async (t) => {
    const seen = new Set<string>();
    let okCalls = 0;
    for (let i = 0; i < 10; i++) {
      const r = await api(
        origin,
        '/user/read',
        { id: session.user.id },
        session.token.accessToken,
        via,
      );
      if (r.code === 'OK') okCalls++;
      seen.add(upstreamOf(r));
    }
    figures.push([
      'one login, 10 calls',
      `${okCalls} OK`,
      [...seen].join(' + '),
    ]);
    await check(
      t,
      okCalls === 10,
      `session: 10 calls with one login answer OK (${okCalls})`,
    );
    await check(
      t,
      seen.has(upA) && seen.has(upB),
      `session: calls landed on both instances (${[...seen].join(', ')})`,
    );
  });

  it('keeps /metrics off the public side', async (t) => {
    const auth = { headers: { authorization: `Bearer ${METRICS_TOKEN}` } };
    const direct = await request(
      'GET',
      `http://${upA}/metrics`,
      undefined,
      auth,
    );
    const proxied = await request('GET', `${origin}/metrics`, undefined, {
      ...via,
      ...auth,
    });
    figures.push([
      'GET /metrics with the token: at an instance / through nginx',
      `${direct.status} / ${proxied.status}`,
      upstreamOf(proxied),
    ]);
    await check(
      t,
      direct.status === 200,
      `metrics: an instance answers its token (${direct.status})`,
    );
    await check(
      t,
      proxied.status === 404 && upstreamOf(proxied) === '?',
      `metrics: nginx answers 404 itself, the token notwithstanding (${proxied.status}, upstream ${upstreamOf(proxied)})`,
    );
  });

  it('rotates refresh tokens whichever instance answers', async (t) => {
    let refresh = session.token.refreshToken;
    const refreshSeen = new Set<string>();
    const accessTokens: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await request(
        'POST',
        `${origin}/api/auth/refresh`,
        {},
        { ...via, headers: { authorization: `Bearer ${refresh}` } },
      );
      refreshSeen.add(upstreamOf(r));
      if (r.code !== 'OK') break;
      const body = r.body as {
        token: { accessToken: string; refreshToken: string };
      };
      refresh = body.token.refreshToken;
      accessTokens.push(body.token.accessToken);
    }
    let refreshed = 0;
    for (const token of accessTokens) {
      const use = await api(
        origin,
        '/user/read',
        { id: session.user.id },
        token,
        via,
      );
      if (use.code === 'OK') refreshed++;
    }
    figures.push([
      '6 refresh rotations',
      `${refreshed} OK`,
      [...refreshSeen].join(' + '),
    ]);
    await check(
      t,
      refreshed === 6,
      `refresh: 6 rotations, each new access token works (${refreshed})`,
    );
    await check(
      t,
      refreshSeen.has(upA) && refreshSeen.has(upB),
      `refresh: answered by both instances (${[...refreshSeen].join(', ')})`,
    );
  });

  it('keeps one rate-limit budget per address across instances', async (t) => {
    // /contact/create allows 5 per address per 10 minutes.
    const form = {
      name: '負荷 太郎',
      email: 'load@example.jp',
      phone: '',
      category: 'その他',
      message: 'レート制限の共有を確かめています。',
    };
    const statuses: number[] = [];
    const okOn = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const r = await api(origin, '/contact/create', form, undefined, via);
      statuses.push(r.status);
      if (r.status === 200) okOn.add(upstreamOf(r));
    }
    const spoofed = await api(origin, '/contact/create', form, undefined, {
      ...via,
      headers: { 'x-forwarded-for': `203.0.113.${randomInt(1, 255)}` },
    });
    const other = await api(origin, '/contact/create', form, undefined, {
      localAddress: clientAddress(),
    });
    figures.push([
      '/contact/create ×6 from one address, then spoofed XFF, then another address',
      `${statuses.join(' ')} / ${spoofed.status} / ${other.status}`,
      [...okOn].join(' + '),
    ]);
    await check(
      t,
      statuses.join() === '200,200,200,200,200,429',
      `rate limit per address shared: 5 OK then 429 (${statuses.join()})`,
    );
    await check(
      t,
      okOn.size === 2,
      `rate limit: the 5 accepted calls were on both instances (${[...okOn].join(', ')})`,
    );
    await check(
      t,
      spoofed.status === 429,
      `rate limit: a spoofed X-Forwarded-For stays limited (${spoofed.status})`,
    );
    await check(
      t,
      other.status === 200,
      `rate limit: another client address has its own budget (${other.status})`,
    );
  });

  describe('chat in a lesson of a pro and three players', () => {
    let lesson = '';
    let pro: Member;
    /** Spends its chat budget in a lesson of its own: the failover posts need the others'. */
    let budgetPro: Member;
    let players: Member[] = [];
    const clients: ChatClient[] = [];

    /** A lesson of `owner` on a day of its own. */
    const createLesson = async (owner: Member): Promise<string> => {
      const created = await api(
        origin,
        '/schedule/create',
        {
          date: '2099-04-01',
          startTime: '09:00',
          endTime: '12:00',
          place: 'nginx CC',
          capacity: 4,
          fee: 10_000,
        },
        token(owner),
        via,
      );
      if (created.code !== 'OK')
        throw new Error(`schedule/create ${created.status} ${created.code}`);
      return (created.body as { id: string }).id;
    };

    before(async () => {
      const { amateurs, pros } = await demoMembers(origin);
      [pro, budgetPro] = pros as [Member, Member];
      lesson = await createLesson(pro);
      players = amateurs.slice(0, 3);
      for (const p of players) {
        const r = await api(
          origin,
          '/schedule/reserve',
          { id: lesson },
          token(p),
          via,
        );
        if (r.code !== 'OK') throw new Error(`reserve ${r.status} ${r.code}`);
      }
    });

    after(() => {
      for (const c of clients) c.close();
    });

    it('keeps one rate-limit budget per member across instances', async (t) => {
      // 60 chat posts a minute.
      const budgetLesson = await createLesson(budgetPro);
      const chatToken = token(budgetPro);
      const chatStatus: number[] = [];
      const chatOkOn = new Set<string>();
      for (let i = 0; i < 61; i++) {
        const r = await api(
          origin,
          '/roundLesson/message',
          {
            partitionKey: budgetLesson,
            msg: `budget ${i}`,
            sender: budgetPro.id,
          },
          chatToken,
          via,
        );
        chatStatus.push(r.status);
        if (r.status === 200) chatOkOn.add(upstreamOf(r));
      }
      const chatOk = chatStatus.filter((s) => s === 200).length;
      figures.push([
        '61 posts with one token',
        `${chatOk} OK, then ${chatStatus[60]}`,
        [...chatOkOn].join(' + '),
      ]);
      await check(
        t,
        chatOk === 60 && chatStatus[60] === 429,
        `rate limit per member shared: 60 posts OK then 429 (${chatOk} OK, last ${chatStatus[60]})`,
      );
      await check(
        t,
        chatOkOn.size === 2,
        `rate limit per member: posts on both instances (${[...chatOkOn].join(', ')})`,
      );
    });

    it('fans a post out to sockets on both instances', async (t) => {
      const wsUrl = `${origin.replace(/^http/, 'ws')}/api/ws`;
      for (let i = 0; i < 12; i++) {
        const member = [...players, pro][i % 4]!;
        const c = new ChatClient(
          origin,
          wsUrl,
          member,
          lesson,
          clientAddress(),
        );
        await c.open();
        clients.push(c);
        const on = new Set(clients.map((x) => x.upstream));
        if (i >= 7 && on.has(upA) && on.has(upB)) break;
      }
      const onA = clients.filter((c) => c.upstream === upA);
      const onB = clients.filter((c) => c.upstream === upB);
      await check(
        t,
        onA.length > 0 && onB.length > 0,
        `sockets through nginx on both instances (${onA.length} + ${onB.length})`,
      );
      const postedOn = new Map<string, string>();
      for (let i = 0; i < 10 && postedOn.size < 2; i++) {
        const r = await api(
          origin,
          '/roundLesson/message',
          { partitionKey: lesson, msg: `fan-out ${i}`, sender: players[0]!.id },
          token(players[0]!),
          via,
        );
        if (r.code === 'OK')
          postedOn.set(
            upstreamOf(r),
            (r.body as { sort_key: string }).sort_key,
          );
      }
      await sleep(1000);
      figures.push([
        `fan-out to ${clients.length} sockets (${onA.length} on A, ${onB.length} on B)`,
        `${postedOn.size} posts, each on every socket`,
        [...postedOn.keys()].join(' + '),
      ]);
      for (const [up, key] of postedOn) {
        const missing = clients.filter((c) => !c.received.has(key));
        await check(
          t,
          missing.length === 0,
          `fan-out: a post handled by ${up} reached sockets on both instances (missing on ${missing.map((c) => c.upstream).join(', ') || 'none'})`,
        );
      }
      await check(
        t,
        postedOn.size === 2,
        `fan-out: posts handled by both instances (${[...postedOn.keys()].join(', ')})`,
      );
    });

    it('loses no post and no socket when one instance gets SIGTERM under load', async (t) => {
      assert.ok(clients.length > 0, 'the sockets of the fan-out are open');
      // Members post through nginx while instance A gets SIGTERM.
      const senders = [pro, ...players].map((m) => ({ m, tok: token(m) }));
      const acked: { key: string; start: number }[] = [];
      const failures = new Map<string, number>();
      const posts: Promise<void>[] = [];
      const total = FAILOVER_POSTS_PER_S * FAILOVER_SECONDS;
      const t0 = performance.now();
      let drainMs = NaN;
      const aServer = a!;
      const stopping = (async () => {
        await sleep(3000);
        const stopAt = performance.now();
        const code = await aServer.stop();
        drainMs = performance.now() - stopAt;
        return code;
      })();
      for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / FAILOVER_POSTS_PER_S;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        const s = senders[i % senders.length]!;
        posts.push(
          api(
            origin,
            '/roundLesson/message',
            { partitionKey: lesson, msg: `failover ${i}`, sender: s.m.id },
            s.tok,
            via,
          ).then((r) => {
            if (r.code === 'OK')
              acked.push({
                key: (r.body as { sort_key: string }).sort_key,
                start: r.startedAt,
              });
            else {
              const k =
                r.status === 0
                  ? (r.error ?? 'no answer')
                  : `${r.status} ${r.code ?? ''}`;
              failures.set(k, (failures.get(k) ?? 0) + 1);
            }
          }),
        );
      }
      await Promise.all(posts);
      const stopCode = await stopping;
      await sleep(2000);
      // Everything acknowledged is stored (read back through nginx: only B is left).
      const stored = new Set<string>();
      let after = '';
      for (;;) {
        const r = await api(
          origin,
          '/roundLesson/getMessage',
          { partitionKey: lesson, ...(after ? { after } : {}), size: 200 },
          token(pro),
          via,
        );
        if (r.code !== 'OK')
          throw new Error(`getMessage ${r.status} ${r.code}`);
        const page = r.body as { sort_key: string }[];
        for (const m of page) stored.add(m.sort_key);
        if (page.length < 200) break;
        after = page[page.length - 1]!.sort_key;
      }
      const lost = acked.filter((x) => !stored.has(x.key));
      const moved = clients.filter((c) => c.upstreams[0] === upA);
      const missing = clients.map(
        (c) =>
          acked.filter((x) => x.start > c.firstOpen && !c.received.has(x.key))
            .length,
      );
      const dupes = clients.reduce(
        (n, c) => n + [...c.received.values()].filter((x) => x > 1).length,
        0,
      );
      const reconnectMs = moved.flatMap((c) => c.reconnectMs);
      failoverRow = [
        total,
        acked.length,
        [...failures].map(([k, n]) => `${k}: ${n}`).join(', ') || 0,
        lost.length,
        `${ms(drainMs)} ms`,
        `${moved.filter((c) => c.reconnects > 0).length} of ${moved.length}`,
        `${ms(percentile(reconnectMs, 50))} / ${ms(Math.max(...reconnectMs))}`,
        clients.reduce((n, c) => n + c.caughtUp, 0),
        missing.reduce((x, y) => x + y, 0),
        dupes,
      ];
      await check(
        t,
        stopCode === 0,
        `failover: SIGTERM'd instance exits 0 (got ${stopCode})`,
      );
      await check(
        t,
        lost.length === 0,
        `failover: no acknowledged post lost (${lost.length} of ${acked.length})`,
      );
      await check(
        t,
        moved.every((c) => c.reconnects > 0 && c.upstream === upB && !c.failed),
        `failover: every socket of the stopped instance reconnected to the other (${moved
          .map(
            (c) =>
              `${c.reconnects} reconnects, now ${c.upstream}${c.failed ? `, ${c.failed}` : ''}`,
          )
          .join('; ')})`,
      );
      await check(
        t,
        missing.every((n) => n === 0),
        `failover: every socket has every post sent after it opened, live or caught up (missing ${missing.join(', ')})`,
      );
      await check(
        t,
        failures.size === 0,
        `failover: every post during the switch answered OK (${[...failures].map(([k, n]) => `${k}: ${n}`).join(', ')})`,
      );
    });
  });
});
