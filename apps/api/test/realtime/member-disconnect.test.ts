import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../src/db/seed.js';
import { SESSION_ENDED_CLOSE } from '../../src/realtime/hub.js';
import { createLesson } from '../fixtures.js';
import {
  call,
  DRIVERS,
  memberSuite,
  secondInstance,
  WEB_CLIENT,
  type TestApp,
} from '../helper.js';
import { openSocket, type SocketEvent } from '../support/sockets.js';

/** A socket of `token`'s holder (the web client's subprotocols). */
const openSocketOf = (url: string, token: string) =>
  openSocket(url, ['proam', `bearer.${token}`]);

const urlOf = (app: TestApp) =>
  `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/ws`;

for (const driver of DRIVERS) {
  describe(`a member's open sockets close when their logins end (${driver})`, () => {
    const suite = memberSuite(driver);
    const { tok, ids } = suite;
    let lesson = '';
    let first = '';
    /** The second instance's socket URL: on PostgreSQL another API instance on the same database, on PGlite the same one. */
    let second = '';
    let closeSecond: () => Promise<void> = () => Promise.resolve();

    before(async () => {
      lesson = (
        await createLesson(suite, 'pro2', {
          date: 40,
          place: '切断テスト倶楽部',
          capacity: 4,
        })
      ).id;
      for (const who of ['ama3', 'ama5', 'ama6'])
        await suite.expect(who, '/schedule/reserve', { id: lesson }, 200);
      await suite.h.app.listen({ port: 0, host: '127.0.0.1' });
      first = urlOf(suite.h.app);
      second = first;
      if (driver === 'postgres') {
        const other = await secondInstance(suite.h);
        await other.app.listen({ port: 0, host: '127.0.0.1' });
        second = urlOf(other.app);
        closeSecond = other.close;
      }
    });
    after(() => closeSecond());

    const say = (msg: string) =>
      suite.expect(
        'pro2',
        '/roundLesson/message',
        { partitionKey: lesson, msg, sender: ids.pro2 },
        200,
      );
    const messages = (s: { events: SocketEvent[] }) =>
      s.events.filter((e) => e.type === 'message').map((e) => e.body.msg);

    it('suspension closes every socket of the member, on each instance, and nothing more reaches them', async () => {
      const a = await openSocketOf(first, tok.ama3!);
      const b = await openSocketOf(second, tok.ama3!);
      const pro = await openSocketOf(first, tok.pro2!);
      try {
        await say('停止の前');
        await suite.expect(
          'admin',
          '/admin/suspend',
          { id: ids.ama3, suspended: true, reason: 'テスト' },
          200,
        );
        assert.equal(await a.closedWithin(), SESSION_ENDED_CLOSE);
        assert.equal(await b.closedWithin(), SESSION_ENDED_CLOSE);
        await say('停止の後');
        // The lesson's other participants still get it: the socket of the suspended member would have too.
        await new Promise((r) => setTimeout(r, 300));
        assert.deepEqual(messages(pro), ['停止の前', '停止の後']);
        assert.deepEqual(messages(a), ['停止の前']);
        assert.deepEqual(messages(b), ['停止の前']);
        // And the token cannot open a new one.
        await assert.rejects(openSocketOf(first, tok.ama3!), /HTTP 401/);
      } finally {
        for (const s of [a, b, pro]) s.ws.close();
      }
    });

    it('a password reset closes them', async () => {
      const email = 'ama5@example.jp';
      const a = await openSocketOf(first, tok.ama5!);
      const b = await openSocketOf(second, tok.ama5!);
      try {
        await call(suite.h.app, '/auth/code/reset', { email });
        const code = /認証コード: (\d{8})/.exec(
          await suite.h.mailTo(email, /パスワード再設定/),
        )![1]!;
        const r = await call(
          suite.h.app,
          '/auth/update',
          { email, password: 'New-Green-Jacket-9', code },
          { headers: { authorization: WEB_CLIENT } },
        );
        assert.equal(r.status, 200, JSON.stringify(r.json));
        assert.equal(await a.closedWithin(), SESSION_ENDED_CLOSE);
        assert.equal(await b.closedWithin(), SESSION_ENDED_CLOSE);
      } finally {
        for (const s of [a, b]) s.ws.close();
      }
    });

    it('account deletion closes them', async () => {
      const a = await openSocketOf(first, tok.ama6!);
      const b = await openSocketOf(second, tok.ama6!);
      try {
        const r = await call(
          suite.h.app,
          '/auth/delete',
          { email: 'ama6@example.jp', password: DEMO_PASSWORD },
          { headers: { authorization: WEB_CLIENT } },
        );
        assert.equal(r.status, 200, JSON.stringify(r.json));
        assert.equal(await a.closedWithin(), SESSION_ENDED_CLOSE);
        assert.equal(await b.closedWithin(), SESSION_ENDED_CLOSE);
      } finally {
        for (const s of [a, b]) s.ws.close();
      }
    });
  });
}
