import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { auditLog, schedules, users } from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { DRIVERS, memberSuite, signIn, type MemberSuite } from '../helper.js';
import {
  createLesson,
  mailsTo,
  rowsWhere,
  scheduleRow,
  tookPart,
} from '../fixtures.js';

type Review = {
  id: string;
  rating: number;
  comment?: string;
  reply?: string;
  userName: string;
};
type U = {
  id: string;
  pro?: {
    verified: boolean;
    ratingAverage: number | null;
    reviewCount: number;
  };
  suspended?: boolean;
  email?: string;
};

const proOf = async (suite: MemberSuite, who: string) =>
  (
    (await suite.post('ama1', '/user/read', { id: suite.ids[who] })).json
      .body as U
  ).pro!;

for (const driver of DRIVERS) {
  describe(`reviews (${driver})`, () => {
    const suite = memberSuite(driver);

    it("lets a participant rate once from the lesson day on, and keeps the pro's average with every change", async () => {
      const before = await proOf(suite, 'pro2');
      const past = await tookPart(suite, 'pro2', addDays(japanDate(), -2), [
        'ama3',
        'ama4',
      ]);
      const write = (who: string, body: Record<string, unknown>) =>
        suite.post(who, '/review/create', { scheduleId: past, ...body });

      assert.equal(
        (await write('ama5', { rating: 5 })).status,
        403,
        'not a participant',
      );
      assert.equal(
        (await write('pro2', { rating: 5 })).status,
        403,
        'a pro does not review',
      );
      assert.equal((await write('ama3', { rating: 6 })).status, 400);
      const first = await write('ama3', {
        rating: 5,
        comment: '  とても分かりやすかったです  ',
      });
      assert.equal(first.status, 200, JSON.stringify(first.json));
      const mine = first.json.body as Review;
      assert.equal(mine.comment, 'とても分かりやすかったです');
      assert.equal((await write('ama3', { rating: 1 })).json.code, 'Conflict');
      assert.equal((await write('ama4', { rating: 2 })).status, 200);

      const avg = (sum: number, n: number) => Math.round((sum * 10) / n) / 10;
      const sum0 = (before.ratingAverage ?? 0) * before.reviewCount;
      let now = await proOf(suite, 'pro2');
      assert.equal(now.reviewCount, before.reviewCount + 2);
      assert.equal(now.ratingAverage, avg(sum0 + 7, before.reviewCount + 2));

      // The author edits; others may not; the pro replies (twice: replaced).
      await suite.expect(
        'ama4',
        '/review/update',
        { id: mine.id, rating: 1 },
        403,
      );
      await suite.expect(
        'ama3',
        '/review/update',
        { id: mine.id, rating: 3 },
        200,
      );
      now = await proOf(suite, 'pro2');
      assert.equal(now.ratingAverage, avg(sum0 + 5, before.reviewCount + 2));
      await suite.expect(
        'pro1',
        '/review/reply',
        { id: mine.id, reply: '他人' },
        403,
      );
      await suite.post('pro2', '/review/reply', {
        id: mine.id,
        reply: 'ありがとうございます',
      });
      const replied = await suite.post('pro2', '/review/reply', {
        id: mine.id,
        reply: 'またお待ちしています',
      });
      assert.equal((replied.json.body as Review).reply, 'またお待ちしています');

      // Newest first, with the author's name.
      const list = (
        await suite.post('ama1', '/review/list', { proId: suite.ids.pro2 })
      ).json.body as Review[];
      assert.ok(list.length >= 2);
      assert.ok(
        list.some(
          (r) =>
            r.id === mine.id &&
            r.reply === 'またお待ちしています' &&
            r.userName,
        ),
      );

      // Deleted by the author: the counters go back.
      await suite.expect('ama4', '/review/delete', { id: mine.id }, 403);
      assert.deepEqual(
        (await suite.post('ama3', '/review/delete', { id: mine.id })).json.body,
        { deletedCount: 1 },
      );
      now = await proOf(suite, 'pro2');
      assert.equal(now.reviewCount, before.reviewCount + 1);
    });

    it('refuses a review before the lesson day and of a called-off lesson', async () => {
      const future = await tookPart(suite, 'pro3', addDays(japanDate(), 3), [
        'ama5',
      ]);
      await suite.expect(
        'ama5',
        '/review/create',
        { scheduleId: future, rating: 4 },
        403,
      );
      const off = await tookPart(suite, 'pro3', addDays(japanDate(), -3), [
        'ama5',
      ]);
      await suite.h.database.db
        .update(schedules)
        .set({ statusRound: 'cancelled', callOffReason: '雨天' })
        .where(eq(schedules.id, off));
      await suite.expect(
        'ama5',
        '/review/create',
        { scheduleId: off, rating: 4 },
        403,
      );
    });

    it('keeps the counters exact under concurrent reviews and edits', async () => {
      const amateurs = ['ama1', 'ama2', 'ama3', 'ama4'];
      const past = await tookPart(
        suite,
        'pro5',
        addDays(japanDate(), -1),
        amateurs,
      );
      const made = await Promise.all(
        amateurs.map((a, i) =>
          suite.post(a, '/review/create', {
            scheduleId: past,
            rating: (i % 5) + 1,
          }),
        ),
      );
      await Promise.all(
        made.map((r, i) =>
          suite.post(amateurs[i]!, '/review/update', {
            id: (r.json.body as Review).id,
            rating: 5,
          }),
        ),
      );
      const [row] = await rowsWhere(suite.h, users, users.id, suite.ids.pro5);
      const all = (
        await suite.post('ama1', '/review/list', {
          proId: suite.ids.pro5,
          size: 50,
        })
      ).json.body as Review[];
      assert.equal(row!.reviewCount, all.length);
      assert.equal(
        row!.ratingSum,
        all.reduce((t, r) => t + r.rating, 0),
      );
    });

    it('sorts pros by rating', async () => {
      const r = await suite.post('ama1', '/users/pro/condition', {
        sort: 'rating',
      });
      const avgs = (r.json.body as U[]).map((u) => u.pro!.ratingAverage);
      const rated = avgs.filter((a) => a !== null) as number[];
      assert.deepEqual(
        rated,
        [...rated].sort((a, b) => b - a),
      );
      assert.ok(
        avgs.indexOf(null) === -1 ||
          avgs.slice(avgs.indexOf(null)).every((a) => a === null),
      );
    });
  });

  describe(`pro verification and suspension (${driver})`, () => {
    const suite = memberSuite(driver);

    it('keeps an unverified pro out of lists and bookings until an admin verifies them, and mails them', async () => {
      const pro6 = suite.ids.pro6!;
      const listed = async (who: string) =>
        (
          (await suite.post(who, '/users/pro/all', { size: 100 })).json
            .body as U[]
        ).some((u) => u.id === pro6);
      assert.equal(await listed('ama1'), false);
      assert.equal(await listed('admin'), true, 'admins see them');
      assert.equal(
        (
          (
            await suite.post('ama1', '/users/pro/condition', {
              keyword: '新井',
            })
          ).json.body as U[]
        ).length,
        0,
      );
      const self = (await suite.post('pro6', '/user/read', { id: pro6 })).json
        .body as U;
      assert.equal(self.pro!.verified, false);
      const lesson = await createLesson(suite, 'pro6', {
        date: 20,
        place: '確認待ちコース',
        fee: 12000,
      });
      await suite.expect(
        'ama1',
        '/schedule/reserve',
        { id: lesson.id },
        'Conflict',
      );

      const unverified = (
        await suite.post('admin', '/admin/users', {
          type: 'pro',
          verified: false,
        })
      ).json.body as U[];
      assert.deepEqual(
        unverified.map((u) => u.id),
        [pro6],
      );
      assert.equal(unverified[0]!.email, 'pro6@example.jp');
      // A keyword finds any member, amateurs included, by name or mail.
      for (const keyword of ['ama2@example', 'AMA2@EXAMPLE.JP'])
        assert.deepEqual(
          (
            (await suite.post('admin', '/admin/users', { keyword })).json
              .body as U[]
          ).map((u) => u.email),
          ['ama2@example.jp'],
          keyword,
        );
      const v = await suite.post('admin', '/admin/verifyPro', {
        id: pro6,
        verified: true,
      });
      assert.equal((v.json.body as U).pro!.verified, true);
      assert.equal(await listed('ama1'), true);
      await suite.expect('ama1', '/schedule/reserve', { id: lesson.id }, 200);
      assert.match(
        await suite.h.mailTo('pro6@example.jp', /確認が完了/),
        /予約を受け付けられます/,
      );
      const audit = await rowsWhere(suite.h, auditLog, auditLog.targetId, pro6);
      assert.ok(audit.some((a) => a.action === 'user.verifyPro'));
      await suite.expect(
        'admin',
        '/admin/verifyPro',
        { id: suite.ids.ama1, verified: true },
        404,
      );
    });

    it('suspends a member: no login, tokens refused at once, hidden from others, future lessons called off; and lifts it', async () => {
      const pro4 = suite.ids.pro4!;
      const lesson = await createLesson(suite, 'pro4', {
        date: 25,
        place: '停止テストコース',
        fee: 12000,
      });
      await suite.post('ama2', '/schedule/reserve', { id: lesson.id });
      await suite.expect(
        'admin',
        '/admin/suspend',
        { id: suite.ids.admin, suspended: true },
        'Conflict',
      );
      const r = await suite.post('admin', '/admin/suspend', {
        id: pro4,
        suspended: true,
        reason: '規約違反の確認のため',
      });
      assert.equal(r.status, 200);
      assert.equal((r.json.body as U).suspended, true);

      // The token issued before is refused at once; a new login answers as a wrong password.
      await suite.expect(
        'pro4',
        '/user/read',
        { id: pro4 },
        'InvalidAccessToken',
      );
      const login = await signIn(suite.h.app, 'pro4@example.jp');
      assert.equal(login.json.code, 'InvalidCredentials');
      assert.equal(
        (await suite.post('ama1', '/user/read', { id: pro4 })).json.body,
        null,
      );
      assert.ok(
        !(
          (await suite.post('ama1', '/users/pro/all', { size: 100 })).json
            .body as U[]
        ).some((u) => u.id === pro4),
      );
      const off = await scheduleRow(suite.h, lesson.id);
      assert.equal(off.statusRound, 'cancelled');
      assert.ok((await mailsTo(suite.h, 'ama2@example.jp', /中止/)).length);

      await suite.post('admin', '/admin/suspend', {
        id: pro4,
        suspended: false,
      });
      const again = await signIn(suite.h.app, 'pro4@example.jp');
      assert.equal(again.status, 200, JSON.stringify(again.json));
      const audit = await rowsWhere(suite.h, auditLog, auditLog.targetId, pro4);
      assert.deepEqual(audit.map((a) => a.action).sort(), [
        'user.suspend',
        'user.unsuspend',
      ]);
    });
  });
}
