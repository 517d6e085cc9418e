/**
 * Two API instances on one PostgreSQL database behind Debian's nginx (its
 * own config and prefix in a temp folder, on a loopback port), sharing rate
 * limits through Redis (REDIS_URL) and trusting nginx's X-Forwarded-For
 * (TRUST_PROXY=127.0.0.1). Clients connect from their own loopback addresses
 * (127.x.y.z) so the API sees distinct clients. Checks:
 * - a login, then calls landing on both instances (stateless sessions);
 * - refresh-token rotation whichever instance answers;
 * - one rate-limit budget across instances (per address and per member), a
 *   spoofed X-Forwarded-For doesn't escape it;
 * - chat fan-out: a post handled by one instance reaches a socket on the other;
 * - SIGTERM to one instance while members post: no acknowledged post lost, its
 *   sockets reconnect through nginx to the other and catch up by last sort_key.
 * `npm run test:pressure:nginx`; exit code 1 on any failed check.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import WebSocket from 'ws';
import {
  api,
  demoMembers,
  freePort,
  login,
  ms,
  percentile,
  REDIS_URL,
  request,
  run,
  sleep,
  startServer,
  table,
  tempDatabase,
  tempDir,
  token,
  type Answer,
  type Member,
  type ServerProc,
} from './shared.js';

const NGINX =
  ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) =>
    existsSync(p),
  ) ?? 'nginx';
const FAILOVER_POSTS_PER_S = 10;
const FAILOVER_SECONDS = 8;

/** A loopback address of its own per client and run (Redis counters outlive a run). */
const clientAddress = () =>
  `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

function nginxConf(dir: string, port: number, upstreams: number[]): string {
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
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream api {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    # Which instance answered, for the checks (a test-only header).
    add_header X-Upstream $upstream_addr always;
    # One proxy in front: the client's address replaces whatever it sent.
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header Host $host;
    location /api/ws {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 120s;
    }
    location / {
      proxy_pass http://api;
    }
  }
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
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited with ${child.exitCode}`);
    const r = await request(
      'GET',
      `http://127.0.0.1:${port}/readyz`,
      undefined,
      {
        agent: false,
        timeoutMs: 1000,
      },
    );
    if (r.status === 200) return child;
    await sleep(100);
  }
  throw new Error('nginx did not come up');
}

const upstreamOf = (a: Answer) => String(a.headers['x-upstream'] ?? '?');

type SocketMessage = {
  type: string;
  body: { partitionKey?: string; sort_key?: string };
};

/** A chat member's socket that reconnects through nginx and catches up by its last sort_key, as the web app does. */
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
          ...(this.lastKey ? { after: this.lastKey } : {}),
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

run('two instances behind nginx', async (v) => {
  const dbase = await tempDatabase('proam_nginx');
  const dirA = tempDir('proam-nginx-a-');
  const dirB = tempDir('proam-nginx-b-');
  const dirN = tempDir('proam-nginx-');
  const [portA, portB, portN] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const env = {
    DATABASE_URL: dbase.url,
    REDIS_URL,
    TRUST_PROXY: '127.0.0.1',
    SHED_EVENT_LOOP_DELAY_MS: '0',
  };
  const upA = `127.0.0.1:${portA}`;
  const upB = `127.0.0.1:${portB}`;
  let a: ServerProc | undefined;
  let b: ServerProc | undefined;
  let nginx: ChildProcess | undefined;
  const figures: (string | number)[][] = [];
  try {
    a = await startServer({ ...env, DATA_DIR: dirA.dir }, portA); // migrates, seeds
    b = await startServer({ ...env, DATA_DIR: dirB.dir }, portB);
    nginx = await startNginx(dirN.dir, portN, [portA, portB]);
    const origin = `http://127.0.0.1:${portN}`;
    const me = clientAddress();
    const via = { localAddress: me };

    // Sessions: one login, then calls on both instances.
    const session = await login(origin, 'ama1@example.jp', undefined, via);
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
    v.expect(
      okCalls === 10,
      `session: 10 calls with one login answer OK (${okCalls})`,
    );
    v.expect(
      seen.has(upA) && seen.has(upB),
      `session: calls landed on both instances (${[...seen].join(', ')})`,
    );
    figures.push([
      'one login, 10 calls',
      `${okCalls} OK`,
      [...seen].join(' + '),
    ]);

    // Refresh rotation across instances.
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
    for (const t of accessTokens) {
      const use = await api(
        origin,
        '/user/read',
        { id: session.user.id },
        t,
        via,
      );
      if (use.code === 'OK') refreshed++;
    }
    v.expect(
      refreshed === 6,
      `refresh: 6 rotations, each new access token works (${refreshed})`,
    );
    v.expect(
      refreshSeen.has(upA) && refreshSeen.has(upB),
      `refresh: answered by both instances (${[...refreshSeen].join(', ')})`,
    );
    figures.push([
      '6 refresh rotations',
      `${refreshed} OK`,
      [...refreshSeen].join(' + '),
    ]);

    // One rate-limit budget: /contact/create allows 5 per address per 10 minutes.
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
    v.expect(
      statuses.join() === '200,200,200,200,200,429',
      `rate limit per address shared: 5 OK then 429 (${statuses.join()})`,
    );
    v.expect(
      okOn.size === 2,
      `rate limit: the 5 accepted calls were on both instances (${[...okOn].join(', ')})`,
    );
    v.expect(
      spoofed.status === 429,
      `rate limit: a spoofed X-Forwarded-For stays limited (${spoofed.status})`,
    );
    v.expect(
      other.status === 200,
      `rate limit: another client address has its own budget (${other.status})`,
    );
    figures.push([
      '/contact/create ×6 from one address, then spoofed XFF, then another address',
      `${statuses.join(' ')} / ${spoofed.status} / ${other.status}`,
      [...okOn].join(' + '),
    ]);

    // A lesson with a pro and three players, for chat.
    const { amateurs, pros } = await demoMembers(origin);
    const pro = pros[0]!;
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
      token(pro),
      via,
    );
    if (created.code !== 'OK')
      throw new Error(`schedule/create ${created.status} ${created.code}`);
    const lesson = (created.body as { id: string }).id;
    const players = amateurs.slice(0, 3);
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

    // Per-member chat budget (60 a minute) across instances.
    const chatToken = token(pro);
    const chatStatus: number[] = [];
    const chatOkOn = new Set<string>();
    for (let i = 0; i < 61; i++) {
      const r = await api(
        origin,
        '/roundLesson/message',
        { partitionKey: lesson, msg: `budget ${i}`, sender: pro.id },
        chatToken,
        via,
      );
      chatStatus.push(r.status);
      if (r.status === 200) chatOkOn.add(upstreamOf(r));
    }
    const chatOk = chatStatus.filter((s) => s === 200).length;
    v.expect(
      chatOk === 60 && chatStatus[60] === 429,
      `rate limit per member shared: 60 posts OK then 429 (${chatOk} OK, last ${chatStatus[60]})`,
    );
    v.expect(
      chatOkOn.size === 2,
      `rate limit per member: posts on both instances (${[...chatOkOn].join(', ')})`,
    );
    figures.push([
      '61 posts with one token',
      `${chatOk} OK, then ${chatStatus[60]}`,
      [...chatOkOn].join(' + '),
    ]);

    // Fan-out: sockets on both instances; posts handled by each reach both.
    const wsUrl = `ws://127.0.0.1:${portN}/api/ws`;
    const clients: ChatClient[] = [];
    for (let i = 0; i < 12; i++) {
      const member = [...players, pro][i % 4]!;
      const c = new ChatClient(origin, wsUrl, member, lesson, clientAddress());
      await c.open();
      clients.push(c);
      const on = new Set(clients.map((x) => x.upstream));
      if (i >= 7 && on.has(upA) && on.has(upB)) break;
    }
    const onA = clients.filter((c) => c.upstream === upA);
    const onB = clients.filter((c) => c.upstream === upB);
    v.expect(
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
        postedOn.set(upstreamOf(r), (r.body as { sort_key: string }).sort_key);
    }
    await sleep(1000);
    for (const [up, key] of postedOn) {
      const missing = clients.filter((c) => !c.received.has(key));
      v.expect(
        missing.length === 0,
        `fan-out: a post handled by ${up} reached sockets on both instances (missing on ${missing.map((c) => c.upstream).join(', ') || 'none'})`,
      );
    }
    v.expect(
      postedOn.size === 2,
      `fan-out: posts handled by both instances (${[...postedOn.keys()].join(', ')})`,
    );
    figures.push([
      `fan-out to ${clients.length} sockets (${onA.length} on A, ${onB.length} on B)`,
      `${postedOn.size} posts, each on every socket`,
      [...postedOn.keys()].join(' + '),
    ]);

    // Failover: members post through nginx while instance A gets SIGTERM.
    const senders = [pro, ...players].map((m) => ({ m, tok: token(m) }));
    const acked: { key: string; start: number }[] = [];
    const failures = new Map<string, number>();
    const posts: Promise<void>[] = [];
    const total = FAILOVER_POSTS_PER_S * FAILOVER_SECONDS;
    const t0 = performance.now();
    let stopAt = 0;
    let stopCode = 'not stopped' as number | string;
    let drainMs = NaN;
    const aServer = a;
    const stopping = (async () => {
      await sleep(3000);
      stopAt = performance.now();
      stopCode = await aServer.stop();
      drainMs = performance.now() - stopAt;
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
    await stopping;
    a = undefined;
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
      if (r.code !== 'OK') throw new Error(`getMessage ${r.status} ${r.code}`);
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
    v.expect(
      stopCode === 0,
      `failover: SIGTERM'd instance exits 0 (got ${stopCode})`,
    );
    v.expect(
      lost.length === 0,
      `failover: no acknowledged post lost (${lost.length} of ${acked.length})`,
    );
    v.expect(
      moved.every((c) => c.reconnects > 0 && c.upstream === upB && !c.failed),
      `failover: every socket of the stopped instance reconnected to the other (${moved
        .map(
          (c) =>
            `${c.reconnects} reconnects, now ${c.upstream}${c.failed ? `, ${c.failed}` : ''}`,
        )
        .join('; ')})`,
    );
    v.expect(
      missing.every((n) => n === 0),
      `failover: every socket has every post sent after it opened, live or caught up (missing ${missing.join(', ')})`,
    );
    v.expect(
      failures.size === 0,
      `failover: every post during the switch answered OK (${[...failures].map(([k, n]) => `${k}: ${n}`).join(', ')})`,
    );

    console.log(
      `\n### Two API instances behind nginx (PostgreSQL, Redis rate limits, TRUST_PROXY=127.0.0.1)\n`,
    );
    console.log(table(['check', 'result', 'answered by'], figures));
    console.log(
      `\n### SIGTERM to one instance while ${senders.length} members post ${FAILOVER_POSTS_PER_S}/s for ${FAILOVER_SECONDS} s\n`,
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
        [
          [
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
          ],
        ],
      ),
    );
    for (const c of clients) c.close();
  } finally {
    await a?.stop();
    await b?.stop();
    if (nginx && nginx.exitCode === null) {
      const gone = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGQUIT');
      await gone;
    }
    await dbase.drop();
    for (const d of [dirA, dirB, dirN]) d.remove();
  }
});
