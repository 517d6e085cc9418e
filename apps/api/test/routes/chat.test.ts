import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { inArray, sql } from 'drizzle-orm';
import {
  call,
  DRIVERS,
  memberSuite,
  secondInstance,
  type TestApp,
} from '../helper.js';
import { openSocket, type SocketEvent } from '../support/sockets.js';
import { messages } from '../../src/db/schema.js';
import { rowsOf } from '../../src/repositories/queries.js';
import { createLesson } from '../fixtures.js';
import { assertRefusals, type Refusal } from '../support/refusals.js';

type M = {
  partitionKey: string;
  sort_key: string;
  msg: string;
  sender: string;
  createTime: string;
  readBy: string[];
};
type Ev = SocketEvent;

for (const driver of DRIVERS) {
  describe(`round-lesson chat (${driver})`, () => {
    const suite = memberSuite(driver);
    const { tok, ids } = suite;
    let base: string;
    const post = (who: string, p: string, body: unknown, app?: TestApp) =>
      call(app ?? suite.h.app, p, body, suite.as(who));
    let lesson: string;
    /** `who` posts `msg` to the lesson's chat as themself (on `app`, or the first instance). */
    const say = (who: string, msg: string, app?: TestApp) =>
      post(
        who,
        '/roundLesson/message',
        { partitionKey: lesson, msg, sender: ids[who] },
        app,
      );
    /** Matches the socket event that delivers `m`. */
    const delivers = (m: M) => (e: Ev) =>
      e.type === 'message' && (e.body as M).sort_key === m.sort_key;

    /** A lesson of pro2's in `date` days, ama2 in it. */
    const lessonWithAma2 = async (
      date: number,
      startTime: string,
      endTime: string,
    ) => {
      const { id } = await createLesson(suite, 'pro2', {
        date,
        startTime,
        endTime,
        place: 'チャットCC',
        capacity: 3,
      });
      await post('ama2', '/schedule/reserve', { id });
      return id;
    };

    before(async () => {
      lesson = await lessonWithAma2(20, '08:00', '11:00');
      await post('ama3', '/schedule/reserve', { id: lesson });
      await suite.h.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = suite.h.app.server.address() as { port: number };
      base = `ws://127.0.0.1:${addr.port}/api/ws`;
    });

    it('lets participants post; sender must be the caller; outsiders are refused', async () => {
      const r = await post('ama2', '/roundLesson/message', {
        partitionKey: lesson,
        msg: '  よろしくお願いします！\n楽しみです。 ',
        sender: ids.ama2,
        createTime: '1999-01-01T00:00:00Z',
      });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const m = r.json.body as M;
      assert.equal(m.msg, 'よろしくお願いします！\n楽しみです。');
      assert.equal(m.sender, ids.ama2);
      assert.ok(
        Math.abs(Date.parse(m.createTime) - Date.now()) < 10_000,
        'server time',
      );
      assert.match(m.sort_key, /^[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.deepEqual(m.readBy, []);
      await assertRefusals(post, [
        [
          'ama2',
          '/roundLesson/message',
          { partitionKey: lesson, msg: 'x', sender: ids.ama3 },
          'Forbidden',
        ],
        [
          'ama4',
          '/roundLesson/message',
          { partitionKey: lesson, msg: 'x', sender: ids.ama4 },
          'Forbidden',
        ],
        [
          'ama4',
          '/roundLesson/getMessage',
          { partitionKey: lesson },
          'Forbidden',
        ],
        [
          'ama2',
          '/roundLesson/message',
          { partitionKey: 'NOSUCHLESSON', msg: 'x', sender: ids.ama2 },
          'NotFound',
        ],
        ...['', '   ', 'あ'.repeat(2001)].map((msg): Refusal => [
          'ama2',
          '/roundLesson/message',
          { partitionKey: lesson, msg, sender: ids.ama2 },
          'ValidationError',
        ]),
      ]);
      // A 2000-character Japanese message fits.
      assert.equal((await say('pro2', 'ゴ'.repeat(2000))).status, 200);
    });

    it("silences only the blocker, or an amateur the pro blocked: a participant's block never takes the chat from the pro or another participant", async () => {
      const { id } = await createLesson(suite, 'pro3', {
        date: 21,
        place: 'ブロック会話CC',
        capacity: 3,
      });
      for (const who of ['ama4', 'ama5'])
        assert.equal(
          (await post(who, '/schedule/reserve', { id })).status,
          200,
          who,
        );
      const status = async (who: string) =>
        (
          await post(who, '/roundLesson/message', {
            partitionKey: id,
            msg: `${who}より`,
            sender: ids[who],
          })
        ).status;
      const block = async (who: string, other: string, path = '/user/block') =>
        assert.equal(
          (await post(who, path, { userId: ids[other] })).status,
          200,
          `${who} ${path} ${other}`,
        );
      try {
        // A participant who booked the lesson blocks its pro and another participant.
        await block('ama4', 'pro3');
        await block('ama4', 'ama5');
        assert.equal(await status('pro3'), 200, 'the pro still posts');
        assert.equal(await status('ama5'), 200, 'the other participant too');
        assert.equal(await status('ama4'), 403, 'the blocker does not');
        // The pro blocks a participant: that one is silenced, not the pro.
        await block('pro3', 'ama5');
        assert.equal(await status('ama5'), 403, 'blocked by the pro');
        assert.equal(await status('pro3'), 200);
      } finally {
        await block('ama4', 'pro3', '/user/unblock');
        await block('ama4', 'ama5', '/user/unblock');
        await block('pro3', 'ama5', '/user/unblock');
      }
      for (const who of ['pro3', 'ama4', 'ama5'])
        assert.equal(await status(who), 200, `${who} once unblocked`);
    });

    it('keeps sort_keys increasing and pages with before/after and size', async () => {
      const sent: M[] = [];
      for (let i = 0; i < 12; i++)
        sent.push(
          (await say(i % 2 ? 'ama3' : 'pro2', `連番 ${i}`)).json.body as M,
        );
      const keys = sent.map((m) => m.sort_key);
      assert.deepEqual(keys, [...keys].sort());
      const all = (
        await post('ama2', '/roundLesson/getMessage', { partitionKey: lesson })
      ).json.body as M[];
      assert.deepEqual(
        all.map((m) => m.sort_key),
        [...all.map((m) => m.sort_key)].sort(),
      );
      const last5 = (
        await post('ama2', '/roundLesson/getMessage', {
          partitionKey: lesson,
          size: 5,
        })
      ).json.body as M[];
      assert.deepEqual(
        last5.map((m) => m.msg),
        sent.slice(-5).map((m) => m.msg),
      );
      const before = (
        await post('ama2', '/roundLesson/getMessage', {
          partitionKey: lesson,
          before: keys[5],
          size: 3,
        })
      ).json.body as M[];
      assert.deepEqual(
        before.map((m) => m.sort_key),
        keys.slice(2, 5),
      );
      const afterK = (
        await post('ama2', '/roundLesson/getMessage', {
          partitionKey: lesson,
          after: keys[8],
        })
      ).json.body as M[];
      assert.deepEqual(
        afterK.map((m) => m.sort_key),
        keys.slice(9),
      );
      assert.equal(
        (
          await post('ama2', '/roundLesson/getMessage', {
            partitionKey: lesson,
            size: 201,
          })
        ).json.code,
        'ValidationError',
      );
    });

    it("takes the key after the newest stored one when the post's own time is not later", async () => {
      // A lesson whose newest message has a key from the far future (a clock
      // behind, or a message written before the lesson had a chat head).
      const other = await lessonWithAma2(21, '08:00', '11:00');
      await suite.h.database.db.insert(messages).values({
        partitionKey: other,
        sortKey: '0200000000000000000000000Z',
        sender: ids.pro2!,
        msg: '未来の時刻',
      });
      const keys: string[] = [];
      for (const [who, msg] of [
        ['ama2', 'はじめの投稿'],
        ['pro2', '二つ目'],
      ] as const) {
        const r = await post(who, '/roundLesson/message', {
          partitionKey: other,
          msg,
          sender: ids[who],
        });
        keys.push((r.json.body as M).sort_key);
      }
      // 'Z' carries into the next digit; the second post follows the first.
      assert.deepEqual(keys, [
        '02000000000000000000000010',
        '02000000000000000000000011',
      ]);
      const listed = (
        await post('ama2', '/roundLesson/getMessage', { partitionKey: other })
      ).json.body as M[];
      assert.deepEqual(
        listed.map((m) => m.msg),
        ['未来の時刻', 'はじめの投稿', '二つ目'],
      );
    });

    it('delivers concurrent posts to a socket in key order, their text as sent', async () => {
      const second =
        driver === 'postgres' ? await secondInstance(suite.h) : undefined;
      const socket = await openSocket(`${base}?access_token=${tok.ama2}`);
      try {
        // Text that looks like the event's own JSON around the key.
        const tricky = '","sort_key":"0","message":{"sort_key":"\\"\n\\n';
        const sent = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            say(
              (['pro2', 'ama3', 'ama2'] as const)[i % 3]!,
              `${tricky}同時 ${i}`,
              i % 2 && second ? second.app : undefined,
            ),
          ),
        );
        const keys = sent.map((r) => (r.json.body as M).sort_key);
        assert.equal(new Set(keys).size, 24, 'one key each');
        // ama2's own posts come back to their socket too.
        await Promise.all(
          sent.map((r) => socket.next(delivers(r.json.body as M))),
        );
        const got = socket.events
          .filter((e) => e.type === 'message')
          .map((e) => e.body as M)
          .filter((m) => m.msg.includes('同時'));
        assert.equal(got.length, 24);
        assert.deepEqual(
          got.map((m) => m.sort_key),
          [...keys].sort(),
          'delivered in commit order, which is key order',
        );
        for (const m of got) assert.ok(m.msg.startsWith(tricky));
        assert.deepEqual(socket.binary, [], 'every event a text frame');
      } finally {
        socket.ws.close();
        await second?.close();
      }
    });

    it('stores a post sent while the lesson is being called off, after the notice (no deadlock)', async () => {
      const doomed = await lessonWithAma2(23, '14:00', '16:00');
      const postAs = (msg: string) =>
        post('ama2', '/roundLesson/message', {
          partitionKey: doomed,
          msg,
          sender: ids.ama2,
        });
      // The lesson has a chat head, as it has once anyone posted.
      assert.equal((await postAs('よろしくお願いします')).status, 200);
      const { repos, clock } = suite.h.app;
      let late: ReturnType<typeof postAs> | undefined;
      let notice = '';
      // The call-off's transaction holds the lesson while a post arrives, then
      // writes its notice to the chat, as /schedule/callOff does.
      await repos.schedules.callOff(
        doomed,
        '雷雨のため',
        clock.now(),
        async (tx) => {
          late = postAs('間に合いますか');
          await new Promise((r) => setTimeout(r, 300));
          notice = (
            await repos.chat.append(
              {
                partitionKey: doomed,
                sender: ids.pro2!,
                msg: '【レッスン中止のお知らせ】雷雨のため',
                createTime: clock.now().toISOString(),
              },
              undefined,
              tx,
            )
          ).sort_key;
        },
      );
      const r = await late!;
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.ok(
        (r.json.body as M).sort_key > notice,
        'the post after the notice',
      );
    });

    it('lists the chat lessons in one call: newest message, unread count, newest conversation first', async () => {
      const r = await post('ama2', '/roundLesson/lessons', {
        userId: ids.ama2,
      });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const list = r.json.body as {
        schedule: { id: string; participants?: string[] };
        lastMessage: M | null;
        unreadCount: number;
      }[];
      const entry = list.find((l) => l.schedule.id === lesson)!;
      assert.ok(entry, 'a lesson the member reserved is listed');
      const all = (
        await post('ama2', '/roundLesson/getMessage', { partitionKey: lesson })
      ).json.body as M[];
      assert.deepEqual(entry.lastMessage, all.at(-1));
      assert.ok(entry.schedule.participants?.includes(ids.ama2!));
      const unread = (
        await post('ama2', '/notification/unstepRoundLesson', {
          userId: ids.ama2,
        })
      ).json.body as { partitionKey: string; unreadCount: number }[];
      assert.equal(
        entry.unreadCount,
        unread.find((u) => u.partitionKey === lesson)?.unreadCount ?? 0,
      );
      // Conversations with messages come first, newest first.
      const withMessages = list.filter((l) => l.lastMessage);
      assert.deepEqual(
        withMessages.map((l) => l.lastMessage!.sort_key),
        withMessages
          .map((l) => l.lastMessage!.sort_key)
          .sort()
          .reverse(),
      );
      assert.ok(
        list.findIndex((l) => !l.lastMessage) === -1 ||
          list
            .slice(list.findIndex((l) => !l.lastMessage))
            .every((l) => !l.lastMessage),
      );
      // The pro sees the lesson too; an outsider does not; nobody lists someone else's.
      const pro = (
        await post('pro2', '/roundLesson/lessons', { userId: ids.pro2 })
      ).json.body as { schedule: { id: string } }[];
      assert.ok(pro.some((l) => l.schedule.id === lesson));
      const outsider = (
        await post('ama5', '/roundLesson/lessons', { userId: ids.ama5 })
      ).json.body as { schedule: { id: string } }[];
      assert.ok(!outsider.some((l) => l.schedule.id === lesson));
      assert.equal(
        (await post('ama5', '/roundLesson/lessons', { userId: ids.ama2 })).json
          .code,
        'Forbidden',
      );
    });

    it('marks read: own and already-read messages are not counted; unread lessons are listed', async () => {
      const unreadBefore = (
        await post('ama2', '/notification/unstepRoundLesson', {
          userId: ids.ama2,
        })
      ).json.body as {
        partitionKey: string;
        unreadCount: number;
        lastMessage: M;
      }[];
      const entry = unreadBefore.find((u) => u.partitionKey === lesson)!;
      assert.ok(entry.unreadCount > 0);
      const all = (
        await post('ama2', '/roundLesson/getMessage', { partitionKey: lesson })
      ).json.body as M[];
      assert.equal(entry.lastMessage.sort_key, all.at(-1)!.sort_key);
      const others = all.filter((m) => m.sender !== ids.ama2);
      assert.equal(entry.unreadCount, others.length);
      const r = await post('ama2', '/roundLesson/messageReaded', {
        userId: ids.ama2,
        msgIdList: all.map((m) => m.sort_key),
      });
      assert.deepEqual(r.json.body, { updatedCount: others.length });
      assert.deepEqual(
        (
          await post('ama2', '/roundLesson/messageReaded', {
            userId: ids.ama2,
            msgIdList: all.map((m) => m.sort_key),
          })
        ).json.body,
        { updatedCount: 0 },
      );
      const after = (
        await post('ama2', '/notification/unstepRoundLesson', {
          userId: ids.ama2,
        })
      ).json.body as { partitionKey: string }[];
      assert.ok(!after.some((u) => u.partitionKey === lesson));
      const reread = (
        await post('pro2', '/roundLesson/getMessage', { partitionKey: lesson })
      ).json.body as M[];
      assert.ok(
        reread
          .filter((m) => m.sender !== ids.ama2)
          .every((m) => m.readBy.includes(ids.ama2!)),
      );
      await assertRefusals(post, [
        [
          'ama2',
          '/roundLesson/messageReaded',
          { userId: ids.ama3, msgIdList: [] },
          'Forbidden',
        ],
        [
          'ama2',
          '/notification/unstepRoundLesson',
          { userId: ids.ama3 },
          'Forbidden',
        ],
        // An outsider may not mark a lesson's messages, and nothing changes.
        [
          'ama5',
          '/roundLesson/messageReaded',
          { userId: ids.ama5, msgIdList: all.map((m) => m.sort_key) },
          'Forbidden',
        ],
      ]);
      // Unknown keys are not counted.
      assert.deepEqual(
        (
          await post('ama2', '/roundLesson/messageReaded', {
            userId: ids.ama2,
            msgIdList: ['01M829PAFHDH7MHQ9W37RWG86Y'],
          })
        ).json.body,
        { updatedCount: 0 },
      );
    });

    it('finds the messages to mark read by their keys alone through an index (migration 0021), not by reading every message', async () => {
      // A receipt names messages without their lesson (docs/api.md): the
      // primary key (partition_key, sort_key) cannot serve that look-up.
      const keys = ['01M829PAFHDH7MHQ9W37RWG86Y', '01M829PAFHDH7MHQ9W37RWG86Z'];
      const plan = await suite.h.database.db.transaction(async (tx) => {
        // As for a large table: a small one is read in full whatever its indexes.
        await tx.execute(sql`select set_config('enable_seqscan', 'off', true)`);
        // markRead's predicate (chat-repository.ts).
        const query = sql`select ${messages.partitionKey} from ${messages}
          where ${inArray(messages.sortKey, keys)}`;
        return (
          await rowsOf<{ 'QUERY PLAN': string }>(tx, sql`explain ${query}`)
        )
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      });
      assert.match(plan, /Index Scan (using|on) messages_sort_key_idx/, plan);
      assert.match(plan, /Index Cond: \(sort_key = ANY/, plan);
    });

    it("answers each listed lesson as /schedule/getById does, the caller's reservation included", async () => {
      type Lesson = { id: string; myReservation?: { status: string } };
      type Listed = { schedule: Lesson };
      // A message from ama3, so that the lesson is unread for ama2 and the pro.
      assert.equal((await say('ama3', '予約の表示テスト')).status, 200);
      for (const who of ['ama2', 'pro2']) {
        const asById = (
          (await post(who, '/schedule/getById', { userId: ids[who] })).json
            .body as Lesson[]
        ).find((s) => s.id === lesson);
        assert.ok(asById, `${who} has the lesson`);
        if (who === 'ama2')
          assert.equal(
            asById.myReservation?.status,
            'confirmed',
            'the test needs a confirmed participant',
          );
        const chats = (
          await post(who, '/roundLesson/lessons', { userId: ids[who] })
        ).json.body as Listed[];
        const unread = (
          await post(who, '/notification/unstepRoundLesson', {
            userId: ids[who],
          })
        ).json.body as Listed[];
        for (const [name, list] of [
          ['/roundLesson/lessons', chats],
          ['/notification/unstepRoundLesson', unread],
        ] as const)
          assert.deepEqual(
            list.find((l) => l.schedule.id === lesson)?.schedule,
            asById,
            `${name} as ${who}`,
          );
      }
    });

    it('pushes new messages and read receipts over the WebSocket to participants only', async () => {
      const pro = await openSocket(`${base}?access_token=${tok.pro2}`);
      const amateur = await openSocket(base, ['proam', `bearer.${tok.ama3}`]);
      assert.equal(
        amateur.ws.protocol,
        'proam',
        'the token is not echoed back',
      );
      const outsider = await openSocket(`${base}?access_token=${tok.ama5}`);
      const r = await say('ama2', 'リアルタイム配信テスト');
      const sent = r.json.body as M;
      const got = await pro.next(delivers(sent));
      assert.equal((got.body as M).msg, 'リアルタイム配信テスト');
      await amateur.next(delivers(sent));
      await post('pro2', '/roundLesson/messageReaded', {
        userId: ids.pro2,
        msgIdList: [sent.sort_key],
      });
      const read = await amateur.next((e) => e.type === 'read');
      assert.deepEqual(read.body, {
        partitionKey: lesson,
        userId: ids.pro2,
        sort_keys: [sent.sort_key],
      });
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(
        !outsider.events.some((e) => e.type === 'message' || e.type === 'read'),
        'outsider got nothing',
      );
      for (const s of [pro, amateur, outsider]) s.ws.close();
    });

    it('limits chat posts to 60 a minute per member, not per IP', async () => {
      const r: number[] = [];
      for (let i = 0; i < 61; i++)
        r.push((await say('ama3', `連投 ${i}`)).status);
      assert.equal(r.filter((x) => x === 200).length <= 60, true);
      assert.equal(r.at(-1), 429);
      // Another member from the same address is not affected.
      assert.equal((await say('ama2', '別の会員')).status, 200);
    });

    it('limits read receipts to 120 a minute per member, not per IP', async () => {
      const read = (who: string) =>
        post(who, '/roundLesson/messageReaded', {
          userId: ids[who],
          msgIdList: [],
        });
      const r: number[] = [];
      for (let i = 0; i < 121; i++) r.push((await read('ama4')).status);
      assert.equal(r.filter((x) => x === 200).length, 120);
      assert.equal(r.at(-1), 429);
      // Another member from the same address is not affected.
      assert.equal((await read('ama5')).status, 200);
    });

    it('refuses a socket without a valid access token', async () => {
      await assert.rejects(openSocket(base), /HTTP 401/);
      await assert.rejects(
        openSocket(`${base}?access_token=garbage`),
        /HTTP 401/,
      );
    });

    if (driver === 'postgres') {
      it('delivers across two API instances on one PostgreSQL database (LISTEN/NOTIFY)', async () => {
        const second = await secondInstance(suite.h);
        const app2 = second.app;
        try {
          await app2.listen({ port: 0, host: '127.0.0.1' });
          const port2 = (app2.server.address() as { port: number }).port;
          const onSecond = await openSocket(
            `ws://127.0.0.1:${port2}/api/ws?access_token=${tok.ama3}`,
          );
          const r = await say('pro2', '別インスタンスへ');
          const sent = r.json.body as M;
          const got = await onSecond.next(delivers(sent));
          assert.equal((got.body as M).msg, '別インスタンスへ');
          // And the other way round.
          const onFirst = await openSocket(`${base}?access_token=${tok.pro2}`);
          const back = (await say('ama3', '返信です', app2)).json.body as M;
          await onFirst.next(delivers(back));
          const dupes = onSecond.events.filter(delivers(sent));
          assert.equal(dupes.length, 1, 'delivered once');
          onSecond.ws.close();
          onFirst.ws.close();
        } finally {
          await second.close();
        }
      });
    }
  });
}
