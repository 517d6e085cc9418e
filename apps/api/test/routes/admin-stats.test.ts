import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reports, users } from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { japanWeekStart } from '../../src/repositories/stats-repository.js';
import { call, DRIVERS, memberSuite } from '../helper.js';
import { createLesson, rowsWhere, tookPart } from '../fixtures.js';

type Week = {
  weekStart: string;
  newMembers: number;
  reservations: number;
  cancellations: number;
  reviews: number;
  chatMessages: number;
};
type Stats = { weeks: Week[]; generatedAt: string };
type Ctx = {
  id: string;
  reporterName?: string;
  targetUserName?: string;
  targetText?: string;
  rating?: number;
};

describe('japanWeekStart', () => {
  it('starts Japan weeks on Monday 00:00 +09:00', () => {
    // Sunday 2026-11-29 23:59 JST is still the week of Monday 11-23.
    assert.equal(
      japanWeekStart(new Date('2026-11-29T14:59:59Z')),
      '2026-11-23',
    );
    // Monday 2026-11-30 00:00 JST (Sunday 15:00 UTC) starts the next one.
    assert.equal(
      japanWeekStart(new Date('2026-11-29T15:00:00Z')),
      '2026-11-30',
    );
    assert.equal(
      japanWeekStart(new Date('2026-12-02T03:00:00Z')),
      '2026-11-30',
    );
  });
});

for (const driver of DRIVERS) {
  describe(`admin stats (${driver})`, () => {
    const suite = memberSuite(driver);
    const stats = async (body?: unknown) => {
      const r = await suite.post('admin', '/admin/stats', body);
      assert.equal(r.status, 200, JSON.stringify(r.json));
      return r.json.body as Stats;
    };

    it('answers 12 Japan weeks from Monday by default, oldest first, with the current week last', async () => {
      const s = await stats();
      assert.equal(s.weeks.length, 12);
      const current = japanWeekStart(new Date());
      assert.equal(s.weeks.at(-1)!.weekStart, current);
      assert.equal(s.weeks[0]!.weekStart, addDays(current, -77));
      for (const [i, w] of s.weeks.entries()) {
        assert.equal(new Date(`${w.weekStart}T00:00:00Z`).getUTCDay(), 1);
        if (i > 0)
          assert.equal(w.weekStart, addDays(s.weeks[i - 1]!.weekStart, 7));
      }
      assert.equal((await stats({ weeks: 1 })).weeks.length, 1);
      assert.equal((await stats({ weeks: 52 })).weeks.length, 52);
      for (const weeks of [0, 53, 'x'])
        assert.equal(
          (await suite.post('admin', '/admin/stats', { weeks })).status,
          400,
        );
    });

    it('counts members, reservations, cancellations, reviews and chat messages in the week they happened', async () => {
      const { post, ids, expect } = suite;
      const db = suite.h.database.db;
      const current = japanWeekStart(new Date());
      const before = (await stats({ weeks: 3 })).weeks;

      // Members: on each side of this week's Monday 00:00 JST; admins do not count.
      const monday = new Date(`${current}T00:00:00+09:00`);
      const member = (id: string, type: string, at: Date) => ({
        id,
        type: type as 'pro',
        email: `${id}@stats.example.jp`,
        passwordHash: 'x',
        userName: `集計${id}`,
        createdAt: at,
        updatedAt: at,
      });
      await db
        .insert(users)
        .values([
          member('statsnew1', 'amature', monday),
          member('statsnew2', 'pro', new Date()),
          member('statsadm', 'admin', new Date()),
          member('statsold', 'amature', new Date(monday.getTime() - 1000)),
        ]);

      // A future lesson reserved then cancelled; a lesson reserved and reviewed.
      const lesson = await createLesson(suite, 'pro3', {
        date: 10,
        startTime: '06:00',
        endTime: '07:00',
        place: '集計テスト倶楽部',
        capacity: 4,
        fee: 8000,
      });
      for (const [who, path] of [
        ['ama4', '/schedule/reserve'],
        ['ama5', '/schedule/reserve'],
        ['ama5', '/schedule/cancel'],
      ] as const)
        await expect(who, path, { id: lesson.id }, 200);
      for (const msg of ['はじめまして', 'よろしくお願いします'])
        await expect(
          'ama4',
          '/roundLesson/message',
          { partitionKey: lesson.id, msg, sender: ids.ama4 },
          200,
        );

      const past = await tookPart(
        suite,
        'pro3',
        addDays(japanDate(), -1),
        ['ama4'],
        { place: '集計テスト倶楽部', fee: 8000 },
      );
      const review = await post('ama4', '/review/create', {
        scheduleId: past,
        rating: 4,
        comment: '丁寧でした',
      });
      assert.equal(review.status, 200, JSON.stringify(review.json));

      const after = (await stats({ weeks: 3 })).weeks;
      const diff = (i: number) => {
        const a = after[i]!;
        const b = before[i]!;
        return {
          newMembers: a.newMembers - b.newMembers,
          reservations: a.reservations - b.reservations,
          cancellations: a.cancellations - b.cancellations,
          reviews: a.reviews - b.reviews,
          chatMessages: a.chatMessages - b.chatMessages,
        };
      };
      assert.deepEqual(diff(2), {
        newMembers: 2,
        reservations: 3,
        cancellations: 1,
        reviews: 1,
        chatMessages: 2,
      });
      assert.deepEqual(diff(1), {
        newMembers: 1,
        reservations: 0,
        cancellations: 0,
        reviews: 0,
        chatMessages: 0,
      });
      assert.deepEqual(diff(0), {
        newMembers: 0,
        reservations: 0,
        cancellations: 0,
        reviews: 0,
        chatMessages: 0,
      });

      // The report context names the reporter and quotes the reported review.
      const reported = await post('pro3', '/report/create', {
        targetType: 'review',
        targetId: (review.json.body as { id: string }).id,
        reason: '不適切な表現',
      });
      assert.equal(reported.status, 200);
      const reportId = (reported.json.body as { id: string }).id;
      const ctx = await post('admin', '/admin/reportContexts', {
        ids: [reportId],
      });
      assert.equal(ctx.status, 200, JSON.stringify(ctx.json));
      const [c] = ctx.json.body as Ctx[];
      assert.equal(c!.id, reportId);
      assert.equal(c!.targetText, '丁寧でした');
      assert.equal(c!.rating, 4);
      const [reporter] = await rowsWhere(suite.h, users, users.id, ids.pro3);
      assert.equal(c!.reporterName, reporter!.userName);
      assert.ok(
        (await rowsWhere(suite.h, reports, reports.id, reportId)).length,
      );
    });

    it('refuses visitors (401) and members who are not admins (403)', async () => {
      for (const p of ['/admin/stats', '/admin/reportContexts']) {
        const body = p === '/admin/stats' ? {} : { ids: ['x'] };
        for (const who of ['ama1', 'pro1']) {
          const r = await suite.post(who, p, body);
          assert.equal(r.status, 403, `${who} ${p}`);
          assert.equal(r.json.code, 'Forbidden');
        }
        const anon = await call(suite.h.app, p, body);
        assert.equal(anon.status, 401);
        assert.equal(anon.json.code, 'InvalidAccessToken');
      }
    });
  });
}
