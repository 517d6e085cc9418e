import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq, like } from 'drizzle-orm';
import { mailOutbox, schedules, users, waitlist } from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { newId } from '../../src/lib/ids.js';
import { createOutboxWorker } from '../../src/mail/outbox-worker.js';
import {
  call,
  DRIVERS,
  memberSuite,
  TestClock,
  type MemberSuite,
} from '../helper.js';
import {
  extraAmateurs,
  heldReservations,
  mailsTo,
  reservationRow,
  rowsWhere,
  scheduleRow,
} from '../fixtures.js';

type S = {
  id: string;
  date: string;
  statusRound: string;
  reservedCount: number;
  waitlistCount: number;
  waitlistPosition?: number;
  callOffReason?: string;
  participants?: string[];
  myReservation?: {
    status: string;
    amount: number;
    serviceFee: number;
    paymentStatus: string;
  };
};

/** Japan time, as an instant: `at('2026-11-28', '23:59:59')`. */
const at = (date: string, time: string) => new Date(`${date}T${time}+09:00`);

/** Lessons of one suite land on dates no other test of the suite uses. */
function lessons(suite: MemberSuite, pro = 'pro3') {
  let day = 30;
  return async (over: Record<string, unknown> = {}) => {
    const r = await suite.post(pro, '/schedule/create', {
      date: addDays(japanDate(), day++),
      startTime: '09:00',
      endTime: '14:00',
      place: '予約テストカントリー倶楽部',
      capacity: 2,
      fee: 18000,
      ...over,
    });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    return r.json.body as S;
  };
}

for (const driver of DRIVERS) {
  describe(`cancellation deadline (${driver})`, () => {
    const clock = new TestClock();
    const suite = memberSuite(driver, {}, { clock });
    const create = lessons(suite);

    it('lets an amateur cancel until 23:59:59 Japan time the day before, and refuses from the lesson day on', async () => {
      const s = await create();
      const eve = addDays(s.date, -1);
      assert.equal(
        (await suite.post('ama1', '/schedule/reserve', { id: s.id })).status,
        200,
      );

      // The day before, one second to midnight in Japan (14:59:59 UTC): still allowed.
      clock.set(at(eve, '23:59:59'));
      const inTime = await suite.post('ama1', '/schedule/cancel', { id: s.id });
      assert.equal(inTime.status, 200, JSON.stringify(inTime.json));
      assert.equal((inTime.json.body as S).myReservation?.status, 'cancelled');

      // Back in, then midnight passes: closed, and nothing changes.
      clock.set(at(eve, '12:00:00'));
      assert.equal(
        (await suite.post('ama1', '/schedule/reserve', { id: s.id })).status,
        200,
      );
      clock.set(at(s.date, '00:00:00'));
      const late = await suite.post('ama1', '/schedule/cancel', { id: s.id });
      assert.equal(late.status, 409);
      assert.equal(late.json.code, 'CancelClosed');
      assert.equal(
        late.json.msg,
        'キャンセル期限（レッスン前日）を過ぎているため、キャンセルできません。',
      );
      assert.equal((await scheduleRow(suite.h, s.id)).reservedCount, 1);
      const mine = await reservationRow(suite.h, s.id, suite.ids.ama1!);
      assert.equal(mine?.status, 'confirmed');
      clock.set(new Date());
    });

    it('shows the reservation as confirmed, paid at the course, to its amateur only', async () => {
      const s = await create();
      const r = await suite.post('ama2', '/schedule/reserve', { id: s.id });
      assert.deepEqual((r.json.body as S).myReservation, {
        status: 'confirmed',
        amount: 18000,
        serviceFee: 0,
        paymentStatus: 'none',
      });
      const seen = await suite.post('ama1', '/schedule/getById', {
        userId: suite.ids.pro3,
      });
      const other = (seen.json.body as S[]).find((x) => x.id === s.id)!;
      assert.equal(other.myReservation, undefined);
      assert.equal(other.participants, undefined);
    });
  });

  describe(`calling a lesson off (${driver})`, () => {
    const suite = memberSuite(driver);
    const create = lessons(suite);

    it('cancels the lesson with the reason for everyone, mails each participant, posts to the chat and empties the waitlist', async () => {
      const s = await create({ capacity: 1 });
      await suite.post('ama1', '/schedule/reserve', { id: s.id });
      const joined = await suite.post('ama2', '/schedule/waitlistJoin', {
        id: s.id,
      });
      assert.deepEqual(joined.json.body, { position: 1 });

      const callOff = (who: string, reason: string, want: number | string) =>
        suite.expect(who, '/schedule/callOff', { id: s.id, reason }, want);
      // Not the participant, not another pro, not without a reason.
      await callOff('ama1', '雨天のため', 403);
      await callOff('pro1', '雨天のため', 403);
      await callOff('pro3', '', 400);
      const r = await callOff('pro3', '雨天のため', 200);
      const off = r.json.body as S;
      assert.equal(off.statusRound, 'cancelled');
      assert.equal(off.callOffReason, '雨天のため');
      assert.equal(off.waitlistCount, 0);

      // The participant sees it on their card, keeps the chat, and reads the reason there.
      const mine = (
        await suite.post('ama1', '/schedule/getById', {
          userId: suite.ids.ama1,
        })
      ).json.body as S[];
      assert.equal(
        mine.find((x) => x.id === s.id)?.callOffReason,
        '雨天のため',
      );
      const chat = await suite.post('ama1', '/roundLesson/getMessage', {
        partitionKey: s.id,
      });
      assert.equal(chat.status, 200);
      const notice = (chat.json.body as { msg: string; sender: string }[]).at(
        -1,
      )!;
      assert.match(notice.msg, /中止.*雨天のため/);
      assert.equal(notice.sender, suite.ids.pro3);

      const mail = await mailsTo(suite.h, 'ama1@example.jp', /中止/);
      assert.equal(mail.length, 1);
      assert.match(mail[0]!.body, /中止の理由：雨天のため/);
      assert.equal(
        (await rowsWhere(suite.h, waitlist, waitlist.scheduleId, s.id)).length,
        0,
      );
      // Once off, it stays off.
      await callOff('pro3', '再度', 'Conflict');
      await suite.expect('ama2', '/schedule/reserve', { id: s.id }, 409);
    });

    it('lets an admin call a lesson off, but nobody once it has started', async () => {
      const s = await create();
      await suite.expect(
        'admin',
        '/schedule/callOff',
        { id: s.id, reason: 'コース都合' },
        200,
      );
      const today = japanDate();
      const [started] = await suite.h.database.db
        .insert(schedules)
        .values({
          id: newId(),
          proId: suite.ids.pro3!,
          date: today,
          startTime: '00:00',
          endTime: '00:01',
          place: '始まったレッスン',
          capacity: 1,
          fee: 0,
        })
        .returning();
      await suite.expect(
        'pro3',
        '/schedule/callOff',
        { id: started!.id, reason: '遅すぎる' },
        'Conflict',
      );
      // Nor by setting its status: the same rule, nothing changes.
      await suite.expect(
        'pro3',
        '/schedule/update',
        { id: started!.id, statusRound: 'cancelled' },
        'Conflict',
      );
      const round = await suite.expect(
        'pro3',
        '/schedule/updateRound',
        { proId: suite.ids.pro3, date: today, statusRound: 'cancelled' },
        200,
      );
      assert.equal(
        (round.json.body as { updatedCount: number }).updatedCount,
        0,
      );
      assert.equal(
        (await scheduleRow(suite.h, started!.id)).statusRound,
        'open',
      );
      assert.equal(
        (await mailsTo(suite.h, 'pro3@example.jp', /中止/)).filter((m) =>
          m.body.includes('始まったレッスン'),
        ).length,
        0,
      );
    });
  });

  describe(`waitlist (${driver})`, () => {
    const suite = memberSuite(driver);
    const create = lessons(suite);

    it('lines amateurs up on a full lesson only, keeps the first position, and moves everyone up', async () => {
      const s = await create({ capacity: 1 });
      const join = (who: string) =>
        suite.post(who, '/schedule/waitlistJoin', { id: s.id });
      assert.equal(
        (await join('ama2')).json.code,
        'Conflict',
        'an open lesson is reserved, not waited for',
      );
      await suite.post('ama1', '/schedule/reserve', { id: s.id });
      assert.equal(
        (await join('ama1')).json.code,
        'Conflict',
        'a participant does not wait',
      );
      assert.equal((await join('pro1')).status, 403);
      for (const [who, position, message] of [
        ['ama2', 1],
        ['ama3', 2],
        ['ama4', 3],
        ['ama2', 1, 'idempotent'],
      ] as const)
        assert.deepEqual((await join(who)).json.body, { position }, message);

      const seen = async (who: string) => {
        const r = await suite.post(who, '/schedule/getById', {
          userId: suite.ids[who],
        });
        assert.equal(
          r.status,
          200,
          suite.h.logs.filter((l) => l.includes('"level":50')).join('\n'),
        );
        return (r.json.body as S[]).find((x) => x.id === s.id);
      };
      assert.equal((await seen('ama3'))?.waitlistPosition, 2);
      assert.equal((await seen('ama3'))?.waitlistCount, 3);

      // ama2 leaves (twice: idempotent): ama3 is first now.
      for (let i = 0; i < 2; i++)
        assert.deepEqual(
          (await suite.post('ama2', '/schedule/waitlistLeave', { id: s.id }))
            .json.body,
          { left: true },
        );
      assert.equal((await seen('ama3'))?.waitlistPosition, 1);
      assert.equal((await seen('ama4'))?.waitlistPosition, 2);

      // ama1 cancels: the place goes to ama3 in the same transaction, and ama3 is mailed.
      const r = await suite.post('ama1', '/schedule/cancel', { id: s.id });
      const after = r.json.body as S;
      assert.equal(after.reservedCount, 1);
      assert.equal(after.statusRound, 'full');
      assert.equal(after.waitlistCount, 1);
      const promoted = await seen('ama3');
      assert.equal(promoted?.myReservation?.status, 'confirmed');
      assert.equal(promoted?.waitlistPosition, undefined);
      assert.deepEqual(promoted?.participants, [suite.ids.ama3]);
      assert.equal((await seen('ama4'))?.waitlistPosition, 1);
      assert.equal(
        (await mailsTo(suite.h, 'ama3@example.jp', /キャンセル待ち/)).length,
        1,
      );
      assert.equal(
        (await mailsTo(suite.h, 'pro3@example.jp', /キャンセル待ち/)).length,
        1,
      );
    });

    it('promotes the first in line when the pro raises the capacity', async () => {
      const s = await create({ capacity: 1 });
      await suite.post('ama1', '/schedule/reserve', { id: s.id });
      await suite.post('ama2', '/schedule/waitlistJoin', { id: s.id });
      await suite.post('ama3', '/schedule/waitlistJoin', { id: s.id });
      // ama4 still waits for the first test's lesson: a member in two lines sees each rank.
      await suite.post('ama4', '/schedule/waitlistJoin', { id: s.id });
      const lines = (
        await suite.post('ama4', '/schedule/getById', {
          userId: suite.ids.ama4,
        })
      ).json.body as S[];
      assert.equal(lines.find((x) => x.id === s.id)?.waitlistPosition, 3);
      assert.ok(lines.filter((x) => x.waitlistPosition).length >= 2);
      const r = await suite.post('pro3', '/schedule/update', {
        id: s.id,
        capacity: 2,
      });
      const after = r.json.body as S;
      assert.equal(after.reservedCount, 2);
      assert.equal(after.statusRound, 'full');
      assert.equal(after.waitlistCount, 2);
      assert.deepEqual(after.participants, [suite.ids.ama1, suite.ids.ama2]);
    });

    it('keeps the line to the rules of a reservation: no block either way, a verified pro', async () => {
      const s = await create({ capacity: 1 });
      const [a, b, c, d, e] = await extraAmateurs(
        suite.h,
        5,
        `line-gate-${driver}`,
      );
      type Who = NonNullable<typeof a>;
      const as = (who: Who, path: string, body: Record<string, unknown>) =>
        call(suite.h.app, path, body, { headers: who.auth.headers });
      const line = async (id: string) =>
        (await rowsWhere(suite.h, waitlist, waitlist.scheduleId, id))
          .sort((x, y) => x.seq - y.seq)
          .map((w) => w.userId);
      assert.equal(
        (await as(a!, '/schedule/reserve', { id: s.id })).status,
        200,
      );
      for (const [who, position] of [
        [b!, 1],
        [c!, 2],
      ] as const)
        assert.deepEqual(
          (await as(who, '/schedule/waitlistJoin', { id: s.id })).json.body,
          { position },
        );
      // b blocks the pro: b leaves the line. The pro blocks d: d cannot join.
      assert.equal(
        (await as(b!, '/user/block', { userId: suite.ids.pro3 })).status,
        200,
      );
      assert.deepEqual(await line(s.id), [c!.id]);
      await suite.expect('pro3', '/user/block', { userId: d!.id }, 200);
      assert.equal(
        (await as(d!, '/schedule/waitlistJoin', { id: s.id })).status,
        403,
      );
      // A blocked member found in the line (written before this rule) is passed over.
      await as(c!, '/schedule/waitlistLeave', { id: s.id });
      await suite.h.database.db
        .insert(waitlist)
        .values({ scheduleId: s.id, userId: d!.id, createdAt: new Date() });
      await as(c!, '/schedule/waitlistJoin', { id: s.id });
      assert.deepEqual(await line(s.id), [d!.id, c!.id]);
      assert.equal(
        (await as(a!, '/schedule/cancel', { id: s.id })).status,
        200,
      );
      assert.equal(
        (await reservationRow(suite.h, s.id, d!.id))?.status,
        undefined,
      );
      assert.equal(
        (await reservationRow(suite.h, s.id, c!.id))?.status,
        'confirmed',
      );
      assert.deepEqual(await line(s.id), []);

      // A pro whose verification is withdrawn takes nobody from the line either.
      const t = await create({ capacity: 1 });
      assert.equal(
        (await as(a!, '/schedule/reserve', { id: t.id })).status,
        200,
      );
      assert.equal(
        (await as(c!, '/schedule/waitlistJoin', { id: t.id })).status,
        200,
      );
      const verify = (verified: boolean) =>
        suite.expect(
          'admin',
          '/admin/verifyPro',
          { id: suite.ids.pro3, verified },
          200,
        );
      await verify(false);
      try {
        assert.equal(
          (await as(e!, '/schedule/waitlistJoin', { id: t.id })).json.code,
          'Conflict',
        );
        assert.equal(
          (await as(a!, '/schedule/cancel', { id: t.id })).status,
          200,
        );
        assert.equal(
          (await reservationRow(suite.h, t.id, c!.id))?.status,
          undefined,
        );
        assert.equal((await scheduleRow(suite.h, t.id)).reservedCount, 0);
        assert.deepEqual(await line(t.id), [c!.id]);
      } finally {
        await verify(true);
      }
      // Verified again: the first in line gets the place that waited for it.
      assert.equal(
        (await reservationRow(suite.h, t.id, c!.id))?.status,
        'confirmed',
      );
      assert.deepEqual(await line(t.id), []);
    });

    it('never seats more than capacity nor leaves a place empty while someone waits, whatever races (12 rounds)', async () => {
      // Twelve amateurs of our own, so the seeded ones keep their state.
      const people = await extraAmateurs(suite.h, 12, `race-${driver}`);
      const as = (i: number, path: string, id: string) =>
        call(suite.h.app, path, { id }, people[i]!.auth);
      for (let round = 0; round < 12; round++) {
        const s = await create({ capacity: 2 });
        await as(0, '/schedule/reserve', s.id);
        await as(1, '/schedule/reserve', s.id);
        // Three kinds of round: the waiting alone get freed places (nobody
        // else reserves); places free while others try to join an empty line;
        // and everything at once.
        const kind = round % 3;
        if (kind !== 1)
          for (const i of [2, 3, 4])
            await as(i, '/schedule/waitlistJoin', s.id);
        const moves = [
          as(0, '/schedule/cancel', s.id),
          as(1, '/schedule/cancel', s.id),
          ...(kind === 0
            ? [
                as(2, '/schedule/waitlistLeave', s.id),
                ...[9, 10, 11].map((i) =>
                  as(i, '/schedule/waitlistJoin', s.id),
                ),
              ]
            : kind === 1
              ? [5, 6, 7, 8, 9, 10].map((i) =>
                  as(i, '/schedule/waitlistJoin', s.id),
                )
              : [
                  as(2, '/schedule/waitlistLeave', s.id),
                  ...[5, 6, 7, 8].map((i) => as(i, '/schedule/reserve', s.id)),
                  ...[9, 10, 11].map((i) =>
                    as(i, '/schedule/waitlistJoin', s.id),
                  ),
                  as(0, '/schedule/reserve', s.id),
                  as(3, '/schedule/waitlistLeave', s.id),
                ]),
        ];
        const answers = await Promise.all(moves);
        for (const a of answers)
          assert.ok(
            a.status === 200 ||
              ['ScheduleFull', 'Conflict'].includes(String(a.json.code)),
            `round ${round}: ${a.status} ${JSON.stringify(a.json)}`,
          );
        const row = await scheduleRow(suite.h, s.id);
        const held = await heldReservations(suite.h, s.id);
        const waiting = await rowsWhere(
          suite.h,
          waitlist,
          waitlist.scheduleId,
          s.id,
        );
        assert.equal(
          row.reservedCount,
          held.length,
          `round ${round}: count follows the rows`,
        );
        assert.ok(
          held.length <= row.capacity,
          `round ${round}: ${held.length} over capacity`,
        );
        if (waiting.length > 0)
          assert.equal(
            held.length,
            row.capacity,
            `round ${round}: a place empty while ${waiting.length} wait`,
          );
        assert.equal(
          row.statusRound,
          held.length === row.capacity ? 'full' : 'open',
        );
        const seated = new Set(held.map((h) => h.userId));
        assert.ok(
          waiting.every((w) => !seated.has(w.userId)),
          `round ${round}: seated and waiting`,
        );
      }
    });
  });

  describe(`notification settings (${driver})`, () => {
    const suite = memberSuite(driver);
    const create = lessons(suite);

    it('starts with every mail on, saves changes, and the worker skips what a member turned off', async () => {
      assert.deepEqual(
        (await suite.post('ama5', '/user/notificationSettings', {})).json.body,
        {
          bookingMail: true,
          reminderMail: true,
          chatMail: true,
        },
      );
      const r = await suite.post('ama5', '/user/notificationSettingsUpdate', {
        bookingMail: false,
      });
      assert.deepEqual(r.json.body, {
        bookingMail: false,
        reminderMail: true,
        chatMail: true,
      });
      assert.equal(
        (
          await suite.post('ama5', '/user/notificationSettingsUpdate', {
            email: true,
          })
        ).status,
        400,
      );
      const s = await create();
      await suite.post('ama5', '/schedule/reserve', { id: s.id });
      await suite.h.app.mailWorker.wake();
      const [toAmateur] = await mailsTo(suite.h, 'ama5@example.jp', /予約/);
      assert.equal(toAmateur!.status, 'skipped');
      const [toPro] = await mailsTo(
        suite.h,
        'pro3@example.jp',
        /予約が入りました/,
      );
      assert.equal(toPro!.status, 'sent');
      const [ama5] = await rowsWhere(suite.h, users, users.id, suite.ids.ama5);
      assert.ok(
        (await suite.h.mailTo('pro3@example.jp', /予約が入りました/)).includes(
          `${ama5!.userName} 様から、以下のラウンドレッスンに予約が入りました。`,
        ),
      );
    });
  });

  describe(`the mail outbox (${driver})`, () => {
    const clock = new TestClock();
    const suite = memberSuite(driver, {}, { clock });
    const create = lessons(suite, 'pro4');

    it("writes the mail in the reservation's transaction: it is there when the answer is, even with the worker stopped", async () => {
      await suite.h.app.mailWorker.stop();
      try {
        const s = await create();
        assert.equal(
          (await suite.post('ama1', '/schedule/reserve', { id: s.id })).status,
          200,
        );
        const rows = await suite.h.database.db
          .select()
          .from(mailOutbox)
          .where(like(mailOutbox.subject, '%予約%'));
        const mine = rows.filter(
          (r) =>
            r.toAddress === 'ama1@example.jp' ||
            r.toAddress === 'pro4@example.jp',
        );
        assert.equal(mine.length, 2);
        assert.ok(mine.every((m) => m.status === 'queued'));
      } finally {
        await suite.h.app.mailWorker.start();
      }
      await suite.h.mailTo('ama1@example.jp', /予約が確定しました/);
    });

    it('sends the reminders from 18:00 Japan time the day before, once per member whatever the scans', async () => {
      const s = await create();
      await suite.post('ama2', '/schedule/reserve', { id: s.id });
      await suite.post('ama3', '/schedule/reserve', { id: s.id });
      const eve = addDays(s.date, -1);
      clock.set(at(eve, '17:59:00'));
      assert.equal((await suite.h.app.jobs.runOnce()).reminders, 0);
      clock.set(at(eve, '18:00:00'));
      await Promise.all([
        suite.h.app.jobs.runOnce(),
        suite.h.app.jobs.runOnce(),
      ]);
      await suite.h.app.jobs.runOnce();
      const rows = await suite.h.database.db
        .select()
        .from(mailOutbox)
        .where(like(mailOutbox.dedupeKey, `reminder:${s.id}:%`));
      assert.deepEqual(rows.map((r) => r.toAddress).sort(), [
        'ama2@example.jp',
        'ama3@example.jp',
        'pro4@example.jp',
      ]);
      assert.ok(rows.every((r) => r.subject.includes('明日')));
      clock.set(new Date());
    });

    it('invites each participant who has not reviewed to write a review once the lesson has ended, once whatever the scans', async () => {
      const s = await create({ capacity: 3 });
      for (const a of ['ama2', 'ama3', 'ama5'])
        assert.equal(
          (await suite.post(a, '/schedule/reserve', { id: s.id })).status,
          200,
        );
      const invitations = () =>
        suite.h.database.db
          .select()
          .from(mailOutbox)
          .where(like(mailOutbox.dedupeKey, `review:${s.id}:%`));
      // During the lesson (it ends at 14:00): nothing yet.
      clock.set(at(s.date, '13:59:00'));
      await suite.h.app.jobs.runOnce();
      assert.equal((await invitations()).length, 0);
      // ama5 reviews before the lesson ends: not invited.
      assert.equal(
        (
          await suite.post('ama5', '/review/create', {
            scheduleId: s.id,
            rating: 5,
          })
        ).status,
        200,
      );
      clock.set(at(s.date, '14:00:00'));
      await Promise.all([
        suite.h.app.jobs.runOnce(),
        suite.h.app.jobs.runOnce(),
      ]);
      clock.set(at(addDays(s.date, 1), '09:00:00'));
      await suite.h.app.jobs.runOnce();
      const rows = await invitations();
      assert.deepEqual(rows.map((r) => r.toAddress).sort(), [
        'ama2@example.jp',
        'ama3@example.jp',
      ]);
      assert.ok(rows.every((r) => r.subject.includes('口コミ')));
      assert.ok(rows.every((r) => r.category === 'booking'));
      assert.match(rows[0]!.body, /口コミを書く/);
      clock.set(new Date());
    });

    it('mails unread chat after 30 minutes, at most once per lesson per 6 hours', async () => {
      const s = await create();
      await suite.post('ama4', '/schedule/reserve', { id: s.id });
      clock.set(new Date());
      await suite.post('pro4', '/roundLesson/message', {
        partitionKey: s.id,
        msg: '集合時間の確認です',
        sender: suite.ids.pro4,
      });
      const digests = async () =>
        (await mailsTo(suite.h, 'ama4@example.jp', /チャット/)).length;
      clock.advance(29 * 60_000);
      await suite.h.app.jobs.runOnce();
      assert.equal(await digests(), 0, 'not before 30 minutes');
      clock.advance(2 * 60_000);
      await suite.h.app.jobs.runOnce();
      await suite.h.app.jobs.runOnce();
      assert.equal(await digests(), 1);
      // Another message an hour later: no second mail within 6 hours…
      clock.advance(60 * 60_000);
      await suite.post('pro4', '/roundLesson/message', {
        partitionKey: s.id,
        msg: '雨具をお持ちください',
        sender: suite.ids.pro4,
      });
      clock.advance(60 * 60_000);
      await suite.h.app.jobs.runOnce();
      assert.equal(await digests(), 1);
      // …and one after.
      clock.advance(5 * 60 * 60_000);
      await suite.h.app.jobs.runOnce();
      assert.equal(await digests(), 2);
      // The sender is never mailed about their own messages.
      assert.equal(
        (await mailsTo(suite.h, 'pro4@example.jp', /チャット/)).length,
        0,
      );
      clock.set(new Date());
    });

    it('retries a failed mail with backoff, and gives it up after 24 hours for admins to see', async () => {
      const { outbox } = suite.h.app.repos;
      const id = newId();
      const created = new Date(Date.now() - 25 * 60 * 60_000);
      await suite.h.database.db.insert(mailOutbox).values({
        id,
        category: 'account',
        toAddress: 'nobody@example.jp',
        subject: '【ProAm Connect】テスト',
        body: '本文',
        createdAt: created,
        nextAttemptAt: new Date(Date.now() + 60 * 60_000),
      });
      const [row] = await suite.h.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.id, id));
      await outbox.fail(row!, 'connect ECONNREFUSED', new Date());
      const summary = (await suite.post('admin', '/admin/mailOutbox', {})).json
        .body as {
        dead: number;
        deadMails: { id: string; lastError?: string }[];
      };
      assert.ok(summary.dead >= 1);
      assert.equal(
        summary.deadMails.find((m) => m.id === id)?.lastError,
        'connect ECONNREFUSED',
      );
      assert.equal(
        (await suite.post('ama1', '/admin/mailOutbox', {})).status,
        403,
      );
    });

    it('retries what failed during a mail-server outage as soon as the server answers again, not after the backoff', async () => {
      const { app, database } = suite.h;
      clock.set(new Date());
      let down = true;
      const sent: string[] = [];
      const refused = () => new Error('connect ECONNREFUSED 127.0.0.1:25');
      const worker = createOutboxWorker({
        outbox: app.repos.outbox,
        database,
        clock,
        log: app.log,
        probeMs: 20,
        transport: {
          send: async (mail) => {
            if (down) throw refused();
            sent.push(mail.to);
          },
          verify: async () => {
            if (down) throw refused();
          },
        },
      });
      await app.mailWorker.stop();
      const id = newId();
      try {
        await database.db.insert(mailOutbox).values({
          id,
          category: 'account',
          toAddress: 'outage@example.jp',
          subject: '【ProAm Connect】障害中のメール',
          body: '本文',
          createdAt: clock.now(),
          nextAttemptAt: clock.now(),
        });
        await worker.start();
        await worker.wake();
        const row = async () =>
          (
            await database.db
              .select()
              .from(mailOutbox)
              .where(eq(mailOutbox.id, id))
          )[0]!;
        const failed = await row();
        assert.equal(failed.status, 'queued');
        assert.match(failed.lastError ?? '', /ECONNREFUSED/);
        assert.ok(
          failed.nextAttemptAt.getTime() - clock.now().getTime() >= 7_500,
          'the failed mail waits its backoff',
        );
        // The server comes back; the clock stands still, so only the probe can
        // make the mail due before its backoff ends.
        down = false;
        const deadline = Date.now() + 5_000;
        while ((await row()).status !== 'sent' && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        assert.equal((await row()).status, 'sent');
        assert.deepEqual(
          sent.filter((to) => to === 'outage@example.jp'),
          ['outage@example.jp'],
        );
      } finally {
        await worker.stop();
        await app.mailWorker.start();
      }
    });
  });
}

describe('outbox backoff', () => {
  it('waits 10 s, then twice as long each time, at most 10 minutes, with ±25 % jitter', async () => {
    const { backoffMs } =
      await import('../../src/repositories/outbox-repository.js');
    const mid = () => 0.5;
    assert.deepEqual(
      [1, 2, 3, 4, 7, 20].map((n) => backoffMs(n, mid)),
      [10_000, 20_000, 40_000, 80_000, 600_000, 600_000],
    );
    assert.equal(
      backoffMs(1, () => 0),
      7_500,
    );
    assert.equal(
      backoffMs(1, () => 1),
      12_500,
    );
  });
});
