import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { news, users } from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { PUBLIC_CHANGES_CHANNEL } from '../../src/repositories/public-cache.js';
import {
  DRIVERS,
  eventually,
  memberSuite,
  secondInstance,
  call,
  type MemberSuite,
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
/** The search as `who`, on `app` (the suite's unless told), 100 a page. */
function searcher(suite: MemberSuite) {
  return async (
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
}
const ids = (page: U[]) => page.map((u) => u.id);

for (const driver of DRIVERS) {
  describe(`pro search through the shared cache (${driver})`, () => {
    const suite = memberSuite(driver);
    const search = searcher(suite);
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

    it('shares the pro list the same way', async () => {
      const list = async (who: string) => {
        const r = await suite.expect(who, '/users/pro/all', { size: 100 }, 200);
        return r.json.body as U[];
      };
      const first = await list('ama1');
      const before = stats();
      assert.deepEqual(await list('ama2'), first);
      assert.equal(stats().loads, before.loads);
      assert.deepEqual(
        ids(first),
        ids(await search('ama1', { sort: 'new' })),
        'newest first, as the search',
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

    it('hears of a lesson only when it opens or closes: a place taken in a lesson that stays open announces nothing (migration 0020)', async () => {
      const date = addDays(japanDate(), 46);
      const created = await suite.expect(
        'pro4',
        '/schedule/create',
        {
          date,
          startTime: '09:00',
          endTime: '14:00',
          place: '告知の試験カントリー',
          capacity: 2,
          fee: 0,
        },
        200,
      );
      const lesson = (created.json.body as { id: string }).id;
      assert.ok(
        await eventually(async () =>
          ids(await search('ama1', { date })).includes(suite.ids.pro4!),
        ),
      );
      const heard: string[] = [];
      const stop = await suite.h.database.listen(PUBLIC_CHANGES_CHANNEL, (t) =>
        heard.push(t),
      );
      try {
        // The page by date as cached once the lesson's own notice has been
        // handled (it may reach the cache's connection after the search above).
        assert.ok(
          await eventually(async () => {
            const before = stats().loads;
            await search('ama1', { date });
            return stats().loads === before;
          }),
        );
        // One of two places: still open, so the date search's page stays.
        const loads = stats().loads;
        await suite.expect('ama1', '/schedule/reserve', { id: lesson }, 200);
        // A change of the news announces 'news', which no search depends on;
        // notices arrive in commit order, so had the reservation announced
        // anything it would come first.
        await suite.h.database.db
          .update(news)
          .set({ body: sql`${news.body} || ''` });
        assert.ok(await eventually(async () => heard.length > 0));
        assert.deepEqual(heard, ['news']);
        assert.ok(
          ids(await search('ama1', { date })).includes(suite.ids.pro4!),
        );
        assert.equal(stats().loads, loads, 'the page by date was kept');
        heard.length = 0;
        // The last place: the lesson is full, no longer an open lesson on that date.
        await suite.expect('ama2', '/schedule/reserve', { id: lesson }, 200);
        assert.ok(await eventually(async () => heard.includes('schedules')));
        assert.ok(
          await eventually(
            async () =>
              !ids(await search('ama1', { date })).includes(suite.ids.pro4!),
          ),
          'a full lesson no longer finds its pro by date',
        );
        heard.length = 0;
        // A place given back opens it again.
        await suite.expect('ama2', '/schedule/cancel', { id: lesson }, 200);
        assert.ok(await eventually(async () => heard.includes('schedules')));
        assert.ok(
          await eventually(async () =>
            ids(await search('ama1', { date })).includes(suite.ids.pro4!),
          ),
        );
        // Moved to another day (once nobody holds a place: a booked lesson
        // keeps its day): found by the new date, no longer by the old one.
        await suite.expect('ama1', '/schedule/cancel', { id: lesson }, 200);
        const later = addDays(date, 1);
        await search('ama1', { date: later });
        heard.length = 0;
        await suite.expect(
          'pro4',
          '/schedule/update',
          { id: lesson, date: later },
          200,
        );
        assert.ok(await eventually(async () => heard.includes('schedules')));
        assert.ok(
          await eventually(
            async () =>
              ids(await search('ama1', { date: later })).includes(
                suite.ids.pro4!,
              ) &&
              !ids(await search('ama1', { date })).includes(suite.ids.pro4!),
          ),
        );
        // Called off: no longer found by its date.
        heard.length = 0;
        await suite.expect(
          'pro4',
          '/schedule/callOff',
          { id: lesson, reason: '荒天のため' },
          200,
        );
        assert.ok(await eventually(async () => heard.includes('schedules')));
        assert.ok(
          await eventually(
            async () =>
              !ids(await search('ama1', { date: later })).includes(
                suite.ids.pro4!,
              ),
          ),
        );
      } finally {
        await stop();
      }
    });

    it('hears of pros only: an amateur’s change announces nothing', async () => {
      const heard: string[] = [];
      const stop = await suite.h.database.listen(PUBLIC_CHANGES_CHANNEL, (t) =>
        heard.push(t),
      );
      try {
        const db = suite.h.database.db;
        await db
          .update(users)
          .set({ userName: '改名したアマ', homeCourse: '府中' })
          .where(eq(users.id, suite.ids.ama3!));
        await db.insert(users).values({
          id: `AMA${Date.now()}`,
          type: 'amature',
          email: `ama${Date.now()}@example.jp`,
          passwordHash: 'x',
          userName: '新しいアマ',
        });
        await db
          .update(users)
          .set({ bio: '告知の試験' })
          .where(eq(users.id, suite.ids.pro3!));
        // Notices arrive in commit order: the pro's comes after any of the amateurs'.
        assert.ok(await eventually(async () => heard.length > 0));
        assert.deepEqual(heard, ['pros']);
      } finally {
        await stop();
      }
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

  // The database's notices stopped (the cache no longer listens): what is
  // seen at once here is the app's own report of its writes.
  describe(`pro search: the app's own writes reach the shared cache at once (${driver})`, () => {
    const suite = memberSuite(driver);
    const search = searcher(suite);
    const stats = () => suite.h.app.publicCache.stats();
    before(() => suite.h.app.publicCache.close());

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
      const listed = await suite.expect(
        'ama2',
        '/users/pro/all',
        { size: 100 },
        200,
      );
      assert.ok(
        !ids(listed.json.body as U[]).includes(pro2),
        'nor in the list',
      );
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

    it('keeps the pages when an amateur edits their profile', async () => {
      await search('ama1');
      await suite.expect(
        'ama2',
        '/user/update',
        { bio: '自己紹介を更新' },
        200,
      );
      const before = stats();
      await search('ama1');
      assert.equal(stats().loads, before.loads);
    });

    it('hides a pro an admin suspends or un-checks at once, and shows them again', async () => {
      const pro4 = suite.ids.pro4!;
      assert.ok(ids(await search('ama1')).includes(pro4));
      for (const [path, change, listed] of [
        ['/admin/suspend', { suspended: true }, false],
        ['/admin/suspend', { suspended: false }, true],
        ['/admin/verifyPro', { verified: false }, false],
        ['/admin/verifyPro', { verified: true }, true],
      ] as const) {
        await suite.expect('admin', path, { id: pro4, ...change }, 200);
        assert.equal(
          ids(await search('ama1')).includes(pro4),
          listed,
          `${path} ${JSON.stringify(change)}`,
        );
      }
    });

    if (driver === 'postgres') {
      it('does not keep a page read while a change was not yet committed', async () => {
        const pro4 = suite.ids.pro4!;
        const { repos, clock } = suite.h.app;
        await repos.transaction(async (tx) => {
          await tx.users.setSuspended(pro4, true, null, clock.now());
          // Another connection: the change is not committed yet.
          assert.ok(ids(await search('ama1')).includes(pro4));
        });
        assert.ok(!ids(await search('ama1')).includes(pro4));
        await repos.users.setSuspended(pro4, false, null, clock.now());
      });
    }
  });
}
