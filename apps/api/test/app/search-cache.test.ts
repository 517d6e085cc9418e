import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addDays, japanDate } from '../../src/lib/time.js';
import {
  DRIVERS,
  eventually,
  memberSuite,
  secondInstance,
  call,
  type TestApp,
} from '../helper.js';

type U = {
  id: string;
  email?: string;
  likeCount: number;
  pro?: { lessonFee?: number };
};

/**
 * The pro search's pages are shared by every member in no block
 * (user-repository.ts `searchPros`, public-cache.ts): each change they depend
 * on must reach them, through the app at once, through the trigger's notice
 * otherwise.
 */
for (const driver of DRIVERS) {
  describe(`pro search through the shared cache (${driver})`, () => {
    const suite = memberSuite(driver);
    const search = async (
      who: string,
      q: Record<string, unknown> = {},
      app: TestApp = suite.h.app,
    ) => {
      const r = await call(
        app,
        '/users/pro/condition',
        { size: 100, ...q },
        suite.as(who),
      );
      assert.equal(r.status, 200, JSON.stringify(r.json));
      return r.json.body as U[];
    };
    const ids = (page: U[]) => page.map((u) => u.id);
    const stats = () => suite.h.app.publicCache.stats();

    it('answers the same search for every member in no block from one load; a pro sees their own email in it', async () => {
      const q = { sort: 'fee' };
      const first = await search('ama1', q);
      assert.ok(first.length >= 3, 'the demo pros');
      const before = stats();
      assert.deepEqual(await search('ama2', q), first);
      assert.equal(stats().loads, before.loads);
      // The members in a block, and the page.
      assert.equal(stats().hits, before.hits + 2);
      assert.ok(first.every((u) => u.email === undefined));
      const own = await search('pro1', q);
      assert.equal(stats().loads, before.loads, 'the same page');
      assert.deepEqual(ids(own), ids(first));
      for (const u of own)
        assert.equal(u.email !== undefined, u.id === suite.ids.pro1, u.id);
    });

    it('shows a pro’s edit and a like at once', async () => {
      const fee = { feeMin: 777_000, feeMax: 777_000 };
      assert.deepEqual(await search('ama1', fee), []);
      assert.deepEqual(await search('ama1', fee), []); // from the cache
      await suite.expect(
        'pro1',
        '/user/update',
        { pro: { lessonFee: 777_000 } },
        200,
      );
      assert.deepEqual(ids(await search('ama1', fee)), [suite.ids.pro1]);

      const likes = async () =>
        (await search('ama1', { sort: 'likes' })).find(
          (u) => u.id === suite.ids.pro5,
        )!.likeCount;
      const count = await likes();
      await suite.expect(
        'ama4',
        '/user/likeCreate',
        { userId: suite.ids.ama4, likeUserId: suite.ids.pro5 },
        200,
      );
      assert.equal(await likes(), count + 1);
    });

    it('hides a pro at once from a member on either side of a block; the others keep the shared page', async () => {
      const pro2 = suite.ids.pro2!;
      assert.ok(ids(await search('ama2')).includes(pro2));
      await suite.expect('ama2', '/user/block', { userId: pro2 }, 200);
      assert.ok(!ids(await search('ama2')).includes(pro2), 'the blocker');
      const before = stats();
      assert.ok(ids(await search('ama3')).includes(pro2), 'another member');
      // A block forgets who is in one (read again by ama2's search), not the pages.
      assert.equal(stats().loads, before.loads);
      assert.equal(stats().hits, before.hits + 2);

      await suite.expect(
        'pro3',
        '/user/block',
        { userId: suite.ids.ama5 },
        200,
      );
      assert.ok(
        !ids(await search('ama5')).includes(suite.ids.pro3!),
        'the blocked member',
      );
      await suite.expect('ama2', '/user/unblock', { userId: pro2 }, 200);
      assert.ok(ids(await search('ama2')).includes(pro2), 'unblocked');
      await suite.expect(
        'pro3',
        '/user/unblock',
        { userId: suite.ids.ama5 },
        200,
      );
    });

    it('finds a pro by a lesson opened on a date once the trigger’s notice arrives; other searches stay cached', async () => {
      const date = addDays(japanDate(), 45);
      const plain = { sort: 'new' };
      await search('ama1', plain);
      assert.ok(!ids(await search('ama1', { date })).includes(suite.ids.pro4!));
      await suite.expect(
        'pro4',
        '/schedule/create',
        {
          date,
          startTime: '09:00',
          endTime: '14:00',
          place: '検索キャッシュ試験カントリー',
          capacity: 2,
          fee: 0,
        },
        200,
      );
      assert.ok(
        await eventually(async () =>
          ids(await search('ama1', { date })).includes(suite.ids.pro4!),
        ),
      );
      const before = stats();
      await search('ama1', plain);
      assert.equal(stats().loads, before.loads, 'a search without a date');
    });

    it('leaves admins out of the shared pages: they also see pros not yet checked', async () => {
      const before = stats();
      const all = await search('admin');
      assert.deepEqual(stats(), before);
      assert.ok(all.length >= (await search('ama1')).length);
    });

    if (driver === 'postgres') {
      it('another instance sees a pro’s edit after its notification', async () => {
        const second = await secondInstance(suite.h);
        try {
          const fee = { feeMin: 888_000, feeMax: 888_000 };
          assert.deepEqual(await search('ama1', fee, second.app), []);
          await suite.expect(
            'pro1',
            '/user/update',
            { pro: { lessonFee: 888_000 } },
            200,
          );
          assert.ok(
            await eventually(
              async () =>
                ids(await search('ama1', fee, second.app)).join() ===
                suite.ids.pro1,
            ),
          );
        } finally {
          await second.close();
        }
      });
    }
  });
}
