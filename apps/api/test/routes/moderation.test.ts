import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERRORS } from '@proam/contract';
import { auditLog, blocks, users } from '../../src/db/schema.js';
import { MAX_BLOCKS } from '../../src/repositories/moderation-repository.js';
import { DRIVERS, memberSuite } from '../helper.js';
import { createLesson, rowsWhere } from '../fixtures.js';

type U = { id: string };

for (const driver of DRIVERS) {
  describe(`blocks and reports (${driver})`, () => {
    const suite = memberSuite(driver);

    it("hides two members from each other and stops likes, the blocker's chat posts and bookings between them; unblocking restores it", async () => {
      const { ids, post, expect } = suite;
      const lesson = (days: number) =>
        createLesson(suite, 'pro2', {
          date: days,
          place: 'ブロックテスト倶楽部',
        });
      const reserve = (id: string, want: number) =>
        expect('ama3', '/schedule/reserve', { id }, want);
      // ama3 and pro2 share a lesson before the block.
      const shared = await lesson(33);
      await reserve(shared.id, 200);

      await expect('ama3', '/user/block', { userId: ids.ama3 }, 400);
      assert.deepEqual(
        (await post('ama3', '/user/block', { userId: ids.pro2 })).json.body,
        [ids.pro2],
      );
      assert.deepEqual(
        (await post('ama3', '/user/block', { userId: ids.pro2 })).json.body,
        [ids.pro2],
        'idempotent',
      );

      const sees = async (who: string, other: string) =>
        (
          (await post(who, '/users/pro/all', { size: 100 })).json.body as U[]
        ).some((u) => u.id === other);
      assert.equal(await sees('ama3', ids.pro2!), false);
      assert.equal(
        await sees('ama4', ids.pro2!),
        true,
        'others still see the pro',
      );
      const search = (await post('ama3', '/users/pro/condition', { size: 100 }))
        .json.body as U[];
      assert.ok(!search.some((u) => u.id === ids.pro2));
      const amateurs = (await post('pro2', '/users/amature/all', { size: 100 }))
        .json.body as U[];
      assert.ok(!amateurs.some((u) => u.id === ids.ama3), 'in both directions');

      await expect(
        'ama3',
        '/user/likeCreate',
        { userId: ids.ama3, likeUserId: ids.pro2 },
        403,
      );
      // In the lesson they share the blocker is silenced; the pro, whose lesson it is, is not.
      await expect(
        'ama3',
        '/roundLesson/message',
        { partitionKey: shared.id, msg: 'こんにちは', sender: ids.ama3 },
        403,
      );
      await expect(
        'pro2',
        '/roundLesson/message',
        { partitionKey: shared.id, msg: 'こんにちは', sender: ids.pro2 },
        200,
      );
      const other = await lesson(34);
      await reserve(other.id, 403);

      assert.deepEqual(
        (await post('ama3', '/user/unblock', { userId: ids.pro2 })).json.body,
        [],
      );
      assert.equal(await sees('ama3', ids.pro2!), true);
      await reserve(other.id, 200);
    });

    it("leaves the reviews of a blocked member (either way) out of a pro's review list; admins see them all", async () => {
      const { ids, post } = suite;
      type R = { id: string; userId: string };
      const list = async (who: string) =>
        (await post(who, '/review/list', { proId: ids.pro1, size: 50 })).json
          .body as R[];
      const all = await list('admin');
      const author = all.find((r) => r.userId !== ids.ama4)!.userId;
      const theirs = all.filter((r) => r.userId === author).length;
      assert.ok(theirs > 0);
      // The author blocks ama4: ama4 no longer reads the author's reviews.
      const name = Object.entries(ids).find(([, id]) => id === author)![0];
      await post(name, '/user/block', { userId: ids.ama4 });
      assert.equal((await list('ama4')).length, all.length - theirs);
      assert.ok(!(await list('ama4')).some((r) => r.userId === author));
      assert.equal((await list('ama5')).length, all.length, 'others see all');
      assert.equal((await list('admin')).length, all.length);
      await post(name, '/user/unblock', { userId: ids.ama4 });
      assert.equal((await list('ama4')).length, all.length);
    });

    it(`lets a member block at most ${MAX_BLOCKS} members: one more is 409 Conflict and changes nothing`, async () => {
      const { ids, post, expect, h } = suite;
      const db = h.database.db;
      const others = Array.from({ length: MAX_BLOCKS }, (_, i) => `CAP${i}`);
      await db.insert(users).values(
        others.map((id) => ({
          id,
          type: 'amature' as const,
          email: `${id.toLowerCase()}@example.jp`,
          passwordHash: 'x',
          userName: id,
        })),
      );
      // All but one written directly (the route takes 30 an hour).
      const at = Date.now() - 60_000;
      await db.insert(blocks).values(
        others.slice(1).map((blockedId, i) => ({
          userId: ids.ama6!,
          blockedId,
          createdAt: new Date(at + i),
        })),
      );
      const list = async () =>
        (await post('ama6', '/user/blocks', {})).json.body as string[];
      assert.equal((await list()).length, MAX_BLOCKS - 1);
      // The last one allowed.
      await expect('ama6', '/user/block', { userId: others[0] }, 200);
      const held = await list();
      assert.equal(held.length, MAX_BLOCKS);
      // One more: refused, with the message of API.md's table.
      const refused = await post('ama6', '/user/block', { userId: ids.pro1 });
      assert.equal(refused.status, 409);
      assert.equal(refused.json.code, 'Conflict');
      assert.equal(refused.json.msg, ERRORS.Conflict.msg);
      assert.deepEqual(await list(), held, 'nothing changed');
      const pros = (await post('ama6', '/users/pro/all', { size: 100 })).json
        .body as U[];
      assert.ok(
        pros.some((u) => u.id === ids.pro1),
        'pro1 is not blocked',
      );
      // Blocking one of them again still answers (idempotent).
      await expect('ama6', '/user/block', { userId: others[7] }, 200);
      // One lifted: there is room for one again.
      await expect('ama6', '/user/unblock', { userId: others[3] }, 200);
      await expect('ama6', '/user/block', { userId: ids.pro1 }, 200);
      await expect('ama6', '/user/block', { userId: ids.pro2 }, 'Conflict');
      await expect('ama6', '/user/unblock', { userId: ids.pro1 }, 200);
    });

    it('limits blocks and unblocks to 30 an hour per member, not per IP', async () => {
      const { ids, post, expect } = suite;
      for (const path of ['/user/block', '/user/unblock']) {
        const r: number[] = [];
        for (let i = 0; i < 31; i++)
          r.push((await post('ama1', path, { userId: ids.pro3 })).status);
        assert.equal(r.filter((x) => x === 200).length, 30, path);
        assert.equal(r.at(-1), 429, path);
      }
      // Another member from the same address is not affected.
      await expect('ama2', '/user/block', { userId: ids.pro3 }, 200);
      await expect('ama2', '/user/unblock', { userId: ids.pro3 }, 200);
    });

    it('takes reports once per target and lets admins resolve them, audited', async () => {
      const { ids, post, expect } = suite;
      const report = {
        targetType: 'user',
        targetId: ids.pro3,
        reason: '連絡先の交換を求められました',
      };
      await expect(
        'ama1',
        '/report/create',
        { ...report, targetType: 'other' },
        400,
      );
      const first = (await post('ama1', '/report/create', report)).json
        .body as { id: string; status: string };
      assert.equal(first.status, 'open');
      const again = (await post('ama1', '/report/create', report)).json
        .body as { id: string };
      assert.equal(again.id, first.id);
      const open = (await post('admin', '/admin/reports', { status: 'open' }))
        .json.body as { id: string }[];
      assert.ok(open.some((r) => r.id === first.id));
      const done = await post('admin', '/admin/reportResolve', {
        id: first.id,
        resolution: '注意喚起のメールを送りました',
      });
      assert.equal((done.json.body as { status: string }).status, 'resolved');
      assert.ok(
        !(
          (await post('admin', '/admin/reports', { status: 'open' })).json
            .body as { id: string }[]
        ).some((r) => r.id === first.id),
      );
      const audit = await rowsWhere(
        suite.h,
        auditLog,
        auditLog.targetId,
        first.id,
      );
      assert.equal(audit[0]?.action, 'report.resolve');
    });
  });
}
