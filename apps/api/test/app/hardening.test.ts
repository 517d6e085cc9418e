import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { ERRORS } from '@proam/contract';
import { reservations } from '../../src/db/schema.js';
import { signAccessToken } from '../../src/plugins/auth.js';
import { MAX_SOCKETS_PER_MEMBER } from '../../src/routes/chat.js';
import {
  call,
  DRIVERS,
  harness,
  memberSuite,
  type Harness,
} from '../helper.js';
import { rowsWhere, scheduleRow } from '../fixtures.js';

/**
 * The findings of the attack on a local instance that live in the
 * request pipeline: each test failed before its fix.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A lesson of the future in which `userId` holds a place. */
async function lessonOf(h: Harness, userId: string): Promise<string> {
  const today = new Date().toISOString().slice(0, 10);
  for (const r of await rowsWhere(h, reservations, reservations.userId, userId))
    if ((await scheduleRow(h, r.scheduleId)).date >= today) return r.scheduleId;
  assert.fail('the demo seed books this member into a future lesson');
}

for (const driver of DRIVERS) {
  describe(`hardening (${driver})`, () => {
    const suite = memberSuite(driver, { LOG_LEVEL: 'info' });
    const { tok, ids } = suite;

    it('counts member budgets per member: a new token or a refresh buys no fresh budget', async () => {
      const like = (token: string) =>
        call(
          suite.h.app,
          '/user/likeCreate',
          { userId: ids.ama3, likeUserId: ids.pro1 },
          { headers: bearer(token) },
        );
      // 120 likes a minute (idempotent, so each answers 200).
      for (let i = 0; i < 120; i++)
        assert.equal((await like(tok.ama3!)).status, 200, `like ${i + 1}`);
      const spent = await like(tok.ama3!);
      assert.equal(spent.status, 429);
      // Another token of the same member, as a refresh hands out.
      await sleep(2);
      const fresh = signAccessToken(suite.h.app, {
        id: ids.ama3!,
        type: 'amature',
      });
      assert.notEqual(fresh, tok.ama3);
      const again = await like(fresh);
      assert.equal(again.status, 429, 'the budget belongs to the member');
      assert.equal(again.json.code, 'TooManyRequests');
      // A made-up token is refused before it could count for anyone.
      assert.equal((await like('made.up.token')).status, 401);
      // Another member keeps a budget of their own.
      assert.equal(
        (
          await call(
            suite.h.app,
            '/user/likeCreate',
            { userId: ids.ama4, likeUserId: ids.pro1 },
            { headers: bearer(tok.ama4!) },
          )
        ).status,
        200,
      );
    });

    it('refuses a change of what says who or what an object is, and names the field', async () => {
      const update = (body: Record<string, unknown>) =>
        call(suite.h.app, '/user/update', body, { headers: bearer(tok.ama2!) });
      const me = (
        await call(
          suite.h.app,
          '/user/read',
          { id: ids.ama2 },
          { headers: bearer(tok.ama2!) },
        )
      ).json.body as Record<string, unknown>;
      for (const [field, value] of [
        ['type', 'pro'],
        ['type', 'admin'],
        ['email', 'someone-else@example.jp'],
        ['createdAt', '2020-01-01T00:00:00.000Z'],
        ['imageInfo', [{ keyName: 'users/x/y.jpg', url: '/media/x' }]],
      ] as const) {
        const r = await update({ id: ids.ama2, [field]: value });
        assert.equal(r.status, 400, `${field}: ${JSON.stringify(value)}`);
        assert.equal(r.json.code, 'ValidationError');
        assert.equal(r.json.msg, `${ERRORS.ValidationError.msg}（${field}）`);
      }
      // Sending the profile back as it was read still works (clients round-trip objects).
      const echo = await update({
        id: me.id,
        type: me.type,
        email: String(me.email).toUpperCase(),
        likeCount: me.likeCount,
        createdAt: me.createdAt,
        imageInfo: me.imageInfo,
        userName: 'テスト 花子',
      });
      assert.equal(echo.status, 200);
      const after = echo.json.body as Record<string, unknown>;
      assert.equal(after.type, 'amature');
      assert.equal(after.email, me.email);
      assert.equal(after.userName, 'テスト 花子');

      // A lesson never changes hands; who is in it follows the reservations.
      const lesson = await lessonOf(suite.h, ids.ama1!);
      const row = await scheduleRow(suite.h, lesson);
      const pro = Object.entries(ids).find(([, id]) => id === row.proId)![0];
      const edit = (body: Record<string, unknown>) =>
        call(
          suite.h.app,
          '/schedule/update',
          { id: lesson, ...body },
          { headers: bearer(tok[pro]!) },
        );
      for (const [field, value] of [
        ['proId', ids.pro5 === row.proId ? ids.pro4 : ids.pro5],
        ['createdAt', '2020-01-01T00:00:00.000Z'],
      ] as const) {
        const r = await edit({ [field]: value });
        assert.equal(r.status, 400, field);
        assert.equal(r.json.msg, `${ERRORS.ValidationError.msg}（${field}）`);
      }
      const ok = await edit({
        participants: [ids.ama5],
        reservedCount: 0,
        proId: row.proId,
        createdAt: row.createdAt.toISOString(),
        note: '持ち物：グローブ',
      });
      assert.equal(ok.status, 200);
      const unchangedRow = await scheduleRow(suite.h, lesson);
      assert.equal(unchangedRow.proId, row.proId);
      assert.equal(unchangedRow.reservedCount, row.reservedCount);
      const [booked] = await suite.h.database.db
        .select({ userId: reservations.userId })
        .from(reservations)
        .where(
          and(
            eq(reservations.scheduleId, lesson),
            eq(reservations.userId, ids.ama5!),
          ),
        );
      assert.equal(
        booked,
        undefined,
        'participants are never taken from a body',
      );
    });

    it('refuses chat messages with control characters or nothing visible', async () => {
      const lesson = await lessonOf(suite.h, ids.ama1!);
      const send = (msg: string) =>
        call(
          suite.h.app,
          '/roundLesson/message',
          { partitionKey: lesson, sender: ids.ama1, msg },
          { headers: bearer(tok.ama1!) },
        );
      for (const msg of [
        '\u200B\u200B',
        '\u3000\u200D\uFEFF',
        'ベル\u0007',
        '\u202Eevil',
        'esc\u001B[2J',
        '\u0085next',
      ]) {
        const r = await send(msg);
        assert.equal(r.status, 400, JSON.stringify(msg));
        assert.equal(r.json.msg, `${ERRORS.ValidationError.msg}（msg）`);
      }
      for (const msg of ['よろしくお願いします', '1行目\n2行目\tタブ', '👍🏻']) {
        const r = await send(msg);
        assert.equal(r.status, 200, JSON.stringify(msg));
      }
    });
  });
}

describe('hardening: the request pipeline', () => {
  const suite = memberSuite('pglite', { LOG_LEVEL: 'info' });
  const { tok } = suite;
  before(() => suite.h.app.listen({ port: 0, host: '127.0.0.1' }));
  const port = () => (suite.h.app.server.address() as AddressInfo).port;

  it('authenticates before reading a body: a stranger gets 401, not a parse of their upload', async () => {
    const r = await suite.h.app.inject({
      method: 'POST',
      url: '/api/storage/upload',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer not-a-token',
      },
      payload: '{"broken json',
    });
    assert.equal(r.statusCode, 401);
    assert.equal(r.json().code, 'InvalidAccessToken');
  });

  it('answers a stranger before their 8 MiB upload has been sent', async () => {
    const socket = connect(port(), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      [
        'POST /api/storage/upload HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `Content-Length: ${8 * 1024 * 1024 - 1}`,
        'Authorization: Bearer not-a-token',
        '',
        '{"data":"',
      ].join('\r\n'),
    );
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    const started = Date.now();
    while (!answer.includes('\r\n\r\n') && Date.now() - started < 3000)
      await sleep(20);
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 401/);
    assert.match(answer, /InvalidAccessToken/);
  });

  it('limits bodies to what a call needs: 64 KiB, more only for uploads and results', async () => {
    const big = JSON.stringify({ id: 'x'.repeat(70 * 1024) });
    const r = await suite.h.app.inject({
      method: 'POST',
      url: '/api/news/read',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    assert.equal(r.statusCode, 413);
    assert.equal(r.json().code, 'PayloadTooLarge');
    // An upload of 100 KiB is read (and judged by its bytes, not refused for size).
    const upload = await call(
      suite.h.app,
      '/storage/upload',
      {
        fileName: 'a.jpg',
        contentType: 'image/jpeg',
        data: 'A'.repeat(100_000),
      },
      { headers: bearer(tok.ama1!) },
    );
    assert.notEqual(upload.status, 413);
  });

  it('refuses deeply nested JSON with 400 and no stack trace in the log', async () => {
    const before = suite.h.logs.length;
    for (const depth of [17, 10_000, 30_000]) {
      const r = await call(
        suite.h.app,
        '/news/readAll',
        `{"page":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      );
      assert.equal(r.status, 400, `depth ${depth}`);
      assert.equal(r.json.code, 'ValidationError');
    }
    const logged = suite.h.logs.slice(before).join('');
    assert.doesNotMatch(logged, /RangeError|Maximum call stack|"stack"/);
    // Depth a call of the contract needs still passes the input stage.
    const ok = await call(suite.h.app, '/news/readAll', '{"page":1}');
    assert.equal(ok.status, 200);
  });

  it('never echoes a token as the WebSocket subprotocol, and caps sockets per member', async () => {
    const url = `ws://127.0.0.1:${port()}/api/ws`;
    const opened = (protocols: string[] | undefined, query = '') =>
      new Promise<{ ws?: WebSocket; status?: number; protocol?: string }>(
        (resolve) => {
          const ws = new WebSocket(`${url}${query}`, protocols);
          ws.once('open', () => resolve({ ws, protocol: ws.protocol }));
          ws.once('unexpected-response', (_req, res) =>
            resolve({ status: res.statusCode }),
          );
          ws.once('error', () => resolve({}));
        },
      );
    // Offering only the token: refused, not answered with it.
    const tokenOnly = await opened([`bearer.${tok.ama1}`]);
    assert.equal(tokenOnly.status, 400);
    // Offering ours beside it: accepted, and the answer is ours.
    const sockets: WebSocket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_MEMBER; i++) {
      const s = await opened(['proam', `bearer.${tok.ama1}`]);
      assert.equal(s.protocol, 'proam');
      sockets.push(s.ws!);
    }
    const tooMany = await opened(undefined, `?access_token=${tok.ama1}`);
    assert.equal(tooMany.status, 429);
    // Another member is not affected; a closed socket frees its place.
    const other = await opened(['proam', `bearer.${tok.ama2}`]);
    assert.equal(other.protocol, 'proam');
    other.ws!.close();
    sockets.pop()!.close();
    await sleep(100);
    const again = await opened(['proam', `bearer.${tok.ama1}`]);
    assert.equal(again.protocol, 'proam');
    for (const ws of [...sockets, again.ws!]) ws.close();
  });
});

/** A free loopback port for a Redis of our own. */
async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  srv.close();
  return port;
}

function startRedis(port: number): ChildProcess {
  return spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
}

describe('hardening: Redis away', () => {
  let port: number;
  let redis: ChildProcess;
  let h: Harness;
  before(async () => {
    port = await freePort();
    redis = startRedis(port);
    await sleep(300);
    h = await harness('pglite', {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
    });
  });
  after(async () => {
    await h.close();
    redis.kill('SIGKILL');
  });

  it('answers 503 with Retry-After while Redis is down, logs once, and recovers by itself', async () => {
    const contact = () =>
      call(
        h.app,
        '/contact/create',
        {
          name: '山田 太郎',
          email: 'taro@example.jp',
          category: 'その他',
          message: 'Redis が止まったときの確認です。',
        },
        { remoteAddress: '10.9.8.7' },
      );
    assert.equal((await contact()).status, 200);
    redis.kill('SIGKILL');
    await once(redis, 'exit');
    await sleep(200);
    for (let i = 0; i < 3; i++) {
      const r = await contact();
      assert.equal(r.status, 503);
      assert.equal(r.json.status, 'NG');
      assert.equal(r.json.code, 'ServiceUnavailable');
      assert.equal(r.json.msg, ERRORS.ServiceUnavailable.msg);
      assert.equal(r.res.headers['retry-after'], '5');
    }
    const outageLines = h.logs.filter((l) =>
      l.includes('rate-limit store unavailable'),
    );
    assert.equal(outageLines.length, 1, 'one log line per outage');
    // Calls without a limit do not depend on Redis.
    const news = await call(h.app, '/news/readAll', {});
    assert.equal(news.status, 200);

    redis = startRedis(port);
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await sleep(200);
      status = (await contact()).status;
    }
    assert.equal(status, 200, 'limited calls work again once Redis is back');
    assert.ok(
      h.logs.some((l) => l.includes('rate-limit store available again')),
    );
  });
});
