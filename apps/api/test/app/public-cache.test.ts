import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { blocks, competitions, news, users } from '../../src/db/schema.js';
import { createPublicCache } from '../../src/repositories/public-cache.js';
import {
  call,
  DRIVERS,
  eventually,
  memberSuite,
  secondInstance,
  TestClock,
  type TestApp,
} from '../helper.js';
import { fakeDatabase } from '../support/fake-database.js';

describe('public read cache rules', () => {
  it('serves a second read from memory, and forgets a table on its notification only', async () => {
    const { database, hooks } = fakeDatabase();
    const cache = await createPublicCache(database);
    let loads = 0;
    const load = async () => ({ value: `v${++loads}` });
    assert.equal(await cache.read('news', 'p1', load), 'v1');
    assert.equal(await cache.read('news', 'p1', load), 'v1');
    assert.equal(await cache.read('competitions', 'all', load), 'v2');
    hooks.payload!('news');
    assert.equal(await cache.read('news', 'p1', load), 'v3');
    assert.equal(await cache.read('competitions', 'all', load), 'v2');
    hooks.resubscribed!();
    assert.equal(await cache.read('competitions', 'all', load), 'v4');
    assert.deepEqual(cache.stats(), { loads: 4, hits: 2, rows: 1 });
  });

  it('forgets an answer when any table it depends on changes, and only those answers', async () => {
    const { database, hooks } = fakeDatabase();
    const cache = await createPublicCache(database);
    let loads = 0;
    const load = async () => ({ value: ++loads });
    const byDate = () => cache.read(['pros', 'schedules'], 'by-date', load);
    const plain = () => cache.read('pros', 'plain', load);
    assert.equal(await byDate(), 1);
    assert.equal(await plain(), 2);
    hooks.payload!('schedules');
    assert.equal(await byDate(), 3);
    assert.equal(await plain(), 2);
    cache.changed('pros');
    assert.equal(await byDate(), 4);
    assert.equal(await plain(), 5);
    hooks.payload!('a_table_of_a_newer_release'); // unknown: forget everything
    assert.equal(await byDate(), 6);
    assert.equal(await plain(), 7);
  });

  it('does not keep an answer loaded before a change of any of its tables', async () => {
    const { database } = fakeDatabase();
    const cache = await createPublicCache(database);
    let release!: () => void;
    const slow = cache.read(
      ['pros', 'schedules'],
      'k',
      () =>
        new Promise<{ value: string }>(
          (r) => (release = () => r({ value: 'old' })),
        ),
    );
    cache.changed('schedules');
    release();
    assert.equal(await slow, 'old');
    assert.equal(
      await cache.read(['pros', 'schedules'], 'k', async () => ({
        value: 'new',
      })),
      'new',
    );
  });

  it('counts a list by its length against its bound', async () => {
    const { database } = fakeDatabase();
    const cache = await createPublicCache(database, { maxRows: 10 });
    let loads = 0;
    const page = async () => ({ value: [++loads, 0, 0, 0, 0] }); // weighs 6
    assert.equal((await cache.read('pros', 'a', page))[0], 1);
    assert.equal((await cache.read('pros', 'a', page))[0], 1);
    assert.equal((await cache.read('pros', 'b', page))[0], 2); // 12 > 10: a goes
    assert.equal((await cache.read('pros', 'b', page))[0], 2);
    assert.equal((await cache.read('pros', 'a', page))[0], 3);
  });

  it('shares one load between concurrent misses of a key', async () => {
    const { database } = fakeDatabase();
    const cache = await createPublicCache(database);
    let loads = 0;
    const load = async () => ({ value: ++loads });
    const got = await Promise.all(
      [1, 2, 3].map(() => cache.read('news', 'k', load)),
    );
    assert.deepEqual(got, [1, 1, 1]);
    assert.equal(loads, 1);
  });

  it('does not keep an answer loaded before a change it raced with', async () => {
    const { database } = fakeDatabase();
    const cache = await createPublicCache(database);
    let release!: () => void;
    const slow = cache.read(
      'news',
      'k',
      () =>
        new Promise<{ value: string }>(
          (r) => (release = () => r({ value: 'old' })),
        ),
    );
    cache.changed('news'); // a write commits while the read is in flight
    release();
    assert.equal(await slow, 'old');
    assert.equal(
      await cache.read('news', 'k', async () => ({ value: 'new' })),
      'new',
    );
  });

  it('keeps an answer only until its own end (the next scheduled publication)', async () => {
    const { database } = fakeDatabase();
    const cache = await createPublicCache(database);
    const t0 = new Date('2026-12-01T00:00:00Z');
    const until = new Date(t0.getTime() + 60_000);
    let loads = 0;
    const load = async () => ({ value: ++loads, until });
    assert.equal(await cache.read('news', 'k', load, t0), 1);
    assert.equal(
      await cache.read('news', 'k', load, new Date(t0.getTime() + 59_999)),
      1,
    );
    assert.equal(await cache.read('news', 'k', load, until), 2);
  });

  it('does not keep a failed load', async () => {
    const { database } = fakeDatabase();
    const cache = await createPublicCache(database);
    await assert.rejects(
      cache.read('news', 'k', async () => {
        throw new Error('database down');
      }),
    );
    assert.equal(
      await cache.read('news', 'k', async () => ({ value: 'ok' })),
      'ok',
    );
  });
});

for (const driver of DRIVERS) {
  describe(`public reads through the cache (${driver})`, () => {
    const clock = new TestClock();
    const suite = memberSuite(driver, {}, { clock });
    const titles = async (app: TestApp = suite.h.app) =>
      (
        (await call(app, '/news/readAll', { page: 1, size: 50 })).json.body as {
          title: string;
        }[]
      ).map((n) => n.title);
    const competitionNames = async (app: TestApp = suite.h.app, who?: string) =>
      (
        (await call(app, '/competition/read', {}, who ? suite.as(who) : {}))
          .json.body as { name: string }[]
      ).map((c) => c.name);

    it('shows an admin’s news at once, and the cache serves the reads between changes', async () => {
      await titles(); // cached now
      const before = suite.h.app.publicCache.stats();
      await titles();
      assert.equal(suite.h.app.publicCache.stats().hits, before.hits + 1);
      const created = await suite.expect(
        'admin',
        '/news/create',
        { title: 'キャッシュ越しのお知らせ', body: '本文' },
        200,
      );
      assert.ok((await titles()).includes('キャッシュ越しのお知らせ'));
      const id = (created.json.body as { id: string }).id;
      const one = await call(suite.h.app, '/news/read', { id });
      assert.equal(
        (one.json.body as { title: string }).title,
        'キャッシュ越しのお知らせ',
      );
      await suite.expect(
        'admin',
        '/news/update',
        { id, title: '更新したお知らせ' },
        200,
      );
      assert.equal(
        (
          (await call(suite.h.app, '/news/read', { id })).json.body as {
            title: string;
          }
        ).title,
        '更新したお知らせ',
      );
      await suite.expect('admin', '/news/delete', { id }, 200);
      assert.ok(!(await titles()).includes('更新したお知らせ'));
      assert.equal(
        (await call(suite.h.app, '/news/read', { id })).json.body,
        null,
      );
    });

    it('publishes a scheduled item when its time comes, with no write in between', async () => {
      const at = new Date(clock.now().getTime() + 60 * 60_000);
      await suite.expect(
        'admin',
        '/news/create',
        {
          title: '予約したお知らせ',
          body: '本文',
          publishedAt: at.toISOString(),
        },
        200,
      );
      assert.ok(!(await titles()).includes('予約したお知らせ'));
      assert.ok(!(await titles()).includes('予約したお知らせ')); // from the cache
      clock.set(new Date(at.getTime() + 1000));
      assert.ok((await titles()).includes('予約したお知らせ'));
    });

    it('forgets a table changed outside the app (the trigger notifies)', async () => {
      await titles();
      await competitionNames();
      await suite.h.database.db
        .update(news)
        .set({ title: sql`'外部ツールで変更'` })
        .where(eq(news.title, '予約したお知らせ'));
      assert.ok(
        await eventually(async () =>
          (await titles()).includes('外部ツールで変更'),
        ),
      );
      const [first] = await suite.h.database.db
        .select({ id: competitions.id })
        .from(competitions)
        .where(sql`${competitions.status} <> 'draft'`)
        .limit(1);
      await suite.h.database.db
        .update(competitions)
        .set({ name: '外部ツールで変えた大会' })
        .where(eq(competitions.id, first!.id));
      assert.ok(
        await eventually(async () =>
          (await competitionNames()).includes('外部ツールで変えた大会'),
        ),
      );
    });

    it('keeps drafts for admins: a member’s cached list never shows one', async () => {
      await suite.expect(
        'admin',
        '/competition/create',
        {
          name: '下書きの大会',
          date: '2027-03-01',
          venue: '府中カントリー',
          status: 'draft',
        },
        200,
      );
      assert.ok(!(await competitionNames()).includes('下書きの大会'));
      assert.ok(
        !(await competitionNames(suite.h.app, 'ama1')).includes('下書きの大会'),
      );
      assert.ok(
        (await competitionNames(suite.h.app, 'admin')).includes('下書きの大会'),
      );
      assert.ok(!(await competitionNames()).includes('下書きの大会'));
    });

    if (driver === 'postgres') {
      it('another instance on the same database sees a change after its notification', async () => {
        const second = await secondInstance(suite.h, {}, { clock });
        try {
          await titles(second.app); // cached on the second instance
          await suite.expect(
            'admin',
            '/news/create',
            { title: '別インスタンスで書いたお知らせ', body: '本文' },
            200,
          );
          assert.ok(
            await eventually(async () =>
              (await titles(second.app)).includes(
                '別インスタンスで書いたお知らせ',
              ),
            ),
          );
        } finally {
          await second.close();
        }
      });
    }
  });

  describe(`the pro search's shared pages with many blocks (${driver})`, () => {
    const suite = memberSuite(driver);
    const stats = () => suite.h.app.publicCache.stats();
    const search = async (who: string) => {
      const r = await suite.expect(who, '/users/pro/all', { size: 100 }, 200);
      return (r.json.body as { id: string }[]).map((u) => u.id);
    };
    /** Whether `who`'s search is now answered from the cache without a load. */
    const servedFromCache = async (who: string) => {
      const before = stats().loads;
      await search(who);
      return stats().loads === before;
    };

    it('keeps serving the shared page when more members are in a block than the cache holds', async () => {
      const { ids } = suite;
      const db = suite.h.database.db;
      // One account has blocked 10,500 members (the cache holds 10,000 rows):
      // one set of every member in a block would be too heavy to keep.
      const many = 10_500;
      await db.execute(sql`
        insert into ${users} (id, type, email, password_hash, user_name)
        select 'MANY' || g, 'amature', 'many' || g || '@example.jp', 'x', 'MANY' || g
        from generate_series(1, ${many}::int) g`);
      await db.execute(sql`
        insert into ${blocks} (user_id, blocked_id, created_at)
        select ${ids.ama5}, 'MANY' || g, now() from generate_series(1, ${many}::int) g`);
      // And ama4 blocks pro2.
      await db.insert(blocks).values({
        userId: ids.ama4!,
        blockedId: ids.pro2!,
        createdAt: new Date(),
      });
      suite.h.app.publicCache.changed('blocks');
      // Once the inserts' notices have come, searches are served from the cache.
      assert.ok(await eventually(() => servedFromCache('ama1')));
      for (let i = 0; i < 5; i++)
        assert.ok(await servedFromCache('ama1'), `search ${i + 2}`);
      // Another member in no block: only whether they are in one is loaded.
      const first = stats();
      const theirs = await search('ama2');
      assert.equal(stats().loads, first.loads + 1);
      assert.ok(await servedFromCache('ama2'));
      assert.ok(theirs.includes(ids.pro2!));
      // Members in a block ask the database, and do not see whom they blocked.
      assert.ok(!(await search('ama4')).includes(ids.pro2!));
    });
  });
}
