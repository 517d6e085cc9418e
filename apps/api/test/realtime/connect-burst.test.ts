import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { signAccessToken } from '../../src/plugins/auth.js';
import { upgradeGate } from '../../src/realtime/upgrade-gate.js';
import { call, DRIVERS, harness, type Harness } from '../helper.js';

/** Members made for the burst: a reconnect storm of this many sockets at once. */
const SOCKETS = 200;

/** Opens a socket as the holder of `token`: 'hello' once registered, else the HTTP status or error of the refusal. */
function connect(url: string, token: string) {
  const ws = new WebSocket(url, ['proam', `bearer.${token}`]);
  const outcome = new Promise<string>((resolve) => {
    ws.on('message', (data) => {
      const e = JSON.parse(String(data)) as { type: string };
      if (e.type === 'hello') resolve('hello');
    });
    ws.once('unexpected-response', (_req, res) =>
      resolve(`HTTP ${res.statusCode}`),
    );
    ws.once('error', (err) => resolve(`error ${err.message}`));
    ws.once('close', (code) => resolve(`closed ${code}`));
  });
  return { ws, outcome };
}

/**
 * A reconnect storm as the server sees it: every client's TCP connection is
 * open, then all the upgrade requests arrive together. Resolves with each
 * one's outcome: 'hello' (101 and the server's first event), else the status
 * line of the refusal.
 */
async function storm(server: Server, tokens: string[]): Promise<string[]> {
  const { port } = server.address() as AddressInfo;
  let accepted = 0;
  const count = () => accepted++;
  server.on('connection', count);
  const sockets = await Promise.all(
    tokens.map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(port, '127.0.0.1', () => resolve(s));
          s.once('error', reject);
        }),
    ),
  );
  // Node accepts one connection per turn of its loop: wait until every one is in.
  while (accepted < tokens.length) await new Promise((r) => setTimeout(r, 5));
  server.off('connection', count);
  const outcomes = sockets.map(
    (s) =>
      new Promise<string>((resolve) => {
        let got = '';
        s.on('data', (d: Buffer) => {
          got += d.toString('latin1');
          if (got.startsWith('HTTP/1.1 101') && got.includes('"type":"hello"'))
            resolve('hello');
          else if (/^HTTP\/1\.1 [2-5]\d\d /.test(got))
            resolve(got.split('\r\n')[0]!);
        });
        s.once('close', () => resolve(`closed: ${got.split('\r\n')[0]}`));
        setTimeout(
          () => resolve(`no answer: ${got.split('\r\n')[0]}`),
          8000,
        ).unref();
      }),
  );
  sockets.forEach((s, i) =>
    s.write(
      [
        'GET /api/ws HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        `Sec-WebSocket-Protocol: proam, bearer.${tokens[i]}`,
        '',
        '',
      ].join('\r\n'),
    ),
  );
  try {
    return await Promise.all(outcomes);
  } finally {
    for (const s of sockets) s.destroy();
  }
}

const closeAll = (sockets: WebSocket[]) =>
  Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === ws.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close();
        }),
    ),
  );

describe('upgrade gate', () => {
  const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

  it('admits at most `concurrency` at once, first come first served, and the next as one is released', async () => {
    const gate = upgradeGate({ concurrency: 2, maxWaitMs: 1000, maxLine: 10 });
    const a = await gate.admit();
    const b = await gate.admit();
    assert.ok(a && b);
    const order: string[] = [];
    const c = gate.admit().then((r) => (order.push('c'), r));
    const d = gate.admit().then((r) => (order.push('d'), r));
    await tick();
    assert.deepEqual(gate.stats(), { active: 2, waiting: 2 });
    a();
    a(); // a second release of one turn frees nothing more
    const released = await c;
    assert.ok(released);
    assert.deepEqual(order, ['c']);
    assert.deepEqual(gate.stats(), { active: 2, waiting: 1 });
    b();
    assert.ok(await d);
    assert.deepEqual(order, ['c', 'd']);
  });

  it('holds upgrades while the database is busy and admits them when it clears', async () => {
    let busy = true;
    const gate = upgradeGate({
      concurrency: 8,
      maxWaitMs: 2000,
      maxLine: 10,
      busy: () => busy,
    });
    let admitted = false;
    const waiting = gate.admit().then((r) => ((admitted = r !== null), r));
    await tick(50);
    assert.equal(admitted, false);
    busy = false;
    assert.ok(await waiting);
  });

  it('refuses after the bounded wait, and at once when the line is full', async () => {
    const gate = upgradeGate({ concurrency: 1, maxWaitMs: 30, maxLine: 1 });
    assert.ok(await gate.admit());
    const late = gate.admit();
    assert.equal(await gate.admit(), null, 'the line is full');
    assert.equal(await late, null, 'waited longer than maxWaitMs');
    assert.deepEqual(gate.stats(), { active: 1, waiting: 0 });
  });

  it('refuses at once an upgrade from a source that already has `maxWaitingPerKey` waiting, not from another', async () => {
    const gate = upgradeGate({
      concurrency: 1,
      maxWaitMs: 1000,
      maxLine: 10,
      maxWaitingPerKey: 2,
    });
    const first = await gate.admit('10.0.0.1');
    assert.ok(first);
    const waiting = [gate.admit('10.0.0.1'), gate.admit('10.0.0.1')];
    assert.equal(await gate.admit('10.0.0.1'), null, 'a third from 10.0.0.1');
    const other = gate.admit('10.0.0.2');
    assert.deepEqual(gate.stats(), { active: 1, waiting: 3 });
    // One of its turns starts: 10.0.0.1 may line up one more.
    first();
    const second = await waiting[0]!;
    assert.ok(second);
    const again = gate.admit('10.0.0.1');
    assert.deepEqual(gate.stats(), { active: 1, waiting: 3 });
    second();
    const third = await waiting[1]!;
    assert.ok(third);
    third();
    const fromOther = await other;
    assert.ok(fromOther);
    fromOther();
    assert.ok(await again);
  });
});

for (const driver of DRIVERS) {
  describe(`a burst of WebSocket connects (${driver})`, () => {
    let h: Harness;
    let url: string;
    const tokens: string[] = [];

    before(async () => {
      // A small pool (5 connections) and a low shedding threshold: a look-up per socket would queue far more.
      h = await harness(driver, { SHED_DB_QUEUE: '5' });
      await h.database.db.execute(sql`
        insert into users (id, type, email, password_hash, user_name)
        select 'BURST' || lpad(i::text, 21, '0'), case when i % 4 = 0 then 'pro' else 'amature' end,
               'burst' || i || '@example.jp', 'x', '会員' || i
        from generate_series(0, ${SOCKETS - 1}) i`);
      for (let i = 0; i < SOCKETS; i++)
        tokens.push(
          signAccessToken(h.app, {
            id: `BURST${String(i).padStart(21, '0')}`,
            type: i % 4 === 0 ? 'pro' : 'amature',
          }),
        );
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = h.app.server.address() as AddressInfo;
      url = `ws://127.0.0.1:${port}/api/ws`;
    });
    after(() => h.close());

    it(`opens ${SOCKETS} member sockets at once (a reconnect storm), none refused, with a few batched member look-ups`, async () => {
      const before = h.app.userCache.lookups();
      const outcomes = await storm(h.app.server, tokens);
      const failed = outcomes.filter((o) => o !== 'hello');
      assert.deepEqual(
        failed,
        [],
        `${failed.length} of ${SOCKETS} refused; first: ${failed[0]}`,
      );
      const after = h.app.userCache.lookups();
      // Every member was looked up once, in far fewer queries than sockets.
      assert.equal(after.ids - before.ids, SOCKETS);
      const queries = after.queries - before.queries;
      assert.ok(
        queries <= SOCKETS / 10,
        `${queries} member look-ups for ${SOCKETS} sockets`,
      );
    });

    it(`opens ${SOCKETS} sockets of the ws client at once again (now cached), none refused`, async () => {
      const sockets = tokens.map((t) => connect(url, t));
      try {
        const outcomes = await Promise.all(sockets.map((s) => s.outcome));
        const failed = outcomes.filter((o) => o !== 'hello');
        assert.deepEqual(failed, [], `first refusal: ${failed[0]}`);
      } finally {
        await closeAll(sockets.map((s) => s.ws));
      }
    });

    it('gives no upgrade turn to a call that only carries an Upgrade header (slow POSTs)', async () => {
      // More posts than the gate admits at once, each saying "Upgrade:
      // websocket" and never sending the rest of its body: an ordinary call
      // (Node hands it to the upgrade event only with "Connection: Upgrade"),
      // which would otherwise keep its turn until the 30 s request timeout.
      const { port } = h.app.server.address() as AddressInfo;
      const hogs = Array.from({ length: 40 }, () => {
        const c = net.connect(port, '127.0.0.1');
        c.on('error', () => undefined);
        c.write(
          'POST /api/news/readAll HTTP/1.1\r\n' +
            `Host: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        );
        return c;
      });
      try {
        await new Promise((r) => setTimeout(r, 300));
        const { ws, outcome } = connect(url, tokens[1]!);
        const got = await Promise.race([
          outcome,
          new Promise<string>((r) =>
            setTimeout(() => r('still waiting after 3 s'), 3000).unref(),
          ),
        ]);
        assert.equal(got, 'hello');
        await closeAll([ws]);
      } finally {
        for (const c of hogs) c.destroy();
      }
    });

    it('makes an upgrade wait while the database queue is long, where a call is refused, and opens it after', async () => {
      const queued = h.database.queued;
      h.database.queued = () => 999;
      try {
        const shed = await call(h.app, '/news/readAll', {});
        assert.equal(shed.status, 503);
        assert.equal(shed.res.headers['retry-after'], '5');
        const { ws, outcome } = connect(url, tokens[0]!);
        let settled = false;
        void outcome.then(() => (settled = true));
        await new Promise((r) => setTimeout(r, 150));
        assert.equal(settled, false, 'the upgrade waits its turn');
        h.database.queued = queued;
        assert.equal(await outcome, 'hello');
        await closeAll([ws]);
      } finally {
        h.database.queued = queued;
      }
    });
  });
}
