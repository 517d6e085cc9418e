import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../src/db/schema.js';
import { createUserCache } from '../../src/repositories/user-cache.js';
import { call, DRIVERS, memberSuite, secondInstance } from '../helper.js';
import { fakeDatabase } from '../support/fake-database.js';

type Row = typeof users.$inferSelect;

describe('user cache rules', () => {
  const row = (userName: string) => ({ id: 'U1', userName }) as Row;

  it('serves a second read from memory and reloads after a notification', async () => {
    const { database, hooks } = fakeDatabase();
    let loads = 0;
    const cache = await createUserCache(database, {
      loadMany: async () => [row(`v${++loads}`)],
    });
    assert.equal((await cache.member('U1'))?.userName, 'v1');
    assert.equal((await cache.member('U1'))?.userName, 'v1');
    assert.equal(loads, 1);
    hooks.payload!('U1');
    assert.equal((await cache.member('U1'))?.userName, 'v2');
    hooks.resubscribed!();
    assert.equal((await cache.member('U1'))?.userName, 'v3');
  });

  it('never caches an unknown id', async () => {
    const { database } = fakeDatabase();
    let loads = 0;
    const cache = await createUserCache(database, {
      loadMany: async () => {
        loads++;
        return [];
      },
    });
    assert.equal(await cache.member('nobody'), undefined);
    assert.equal(await cache.member('nobody'), undefined);
    assert.equal(loads, 2);
  });
});

describe('user cache batched member look-ups', () => {
  const row = (id: string, userName = id) => ({ id, userName }) as Row;
  /** A loadMany that records each call's ids and answers when released (or at once). */
  function recordingLoader(known: (id: string) => boolean = () => true) {
    const calls: string[][] = [];
    const held: (() => void)[] = [];
    let hold = false;
    const loadMany = (ids: string[]) => {
      calls.push([...ids].sort());
      // Each look-up's rows carry its number, so a test can tell which one a cached row came from.
      const n = calls.length;
      const answer = () => ids.filter(known).map((id) => row(id, `${id}@${n}`));
      if (!hold) return Promise.resolve(answer());
      return new Promise<Row[]>((r) => held.push(() => r(answer())));
    };
    return {
      calls,
      loadMany,
      holdAnswers: (on: boolean) => (hold = on),
      releaseAll: () => held.splice(0).forEach((f) => f()),
    };
  }
  const turn = () => new Promise((r) => setImmediate(r));

  it('sends the misses of one turn as one query, one look-up per id, and serves the rows from memory after', async () => {
    const { database } = fakeDatabase();
    const l = recordingLoader((id) => id !== 'nobody');
    const cache = await createUserCache(database, { loadMany: l.loadMany });
    const got = await Promise.all(
      ['U1', 'U2', 'U1', 'U3', 'nobody', 'U2'].map((id) => cache.member(id)),
    );
    assert.deepEqual(
      got.map((r) => r?.id),
      ['U1', 'U2', 'U1', 'U3', undefined, 'U2'],
    );
    assert.deepEqual(l.calls, [['U1', 'U2', 'U3', 'nobody']]);
    assert.deepEqual(cache.lookups(), { queries: 1, ids: 4 });
    assert.equal((await cache.member('U3'))?.id, 'U3');
    assert.equal(cache.peek('U2')?.id, 'U2');
    // An unknown id is asked again.
    await cache.member('nobody');
    assert.deepEqual(l.calls.at(-1), ['nobody']);
    assert.equal(l.calls.length, 2);
  });

  it('keeps no row loaded before a write it raced with, and does not share that look-up with a call after the write', async () => {
    const { database, hooks } = fakeDatabase();
    const l = recordingLoader();
    const cache = await createUserCache(database, { loadMany: l.loadMany });
    l.holdAnswers(true);
    const first = cache.member('U1');
    await turn(); // the look-up is under way
    hooks.payload!('U1'); // a write commits meanwhile
    const second = cache.member('U1');
    await turn();
    assert.equal(l.calls.length, 2, 'the call after the write looks up anew');
    l.holdAnswers(false);
    l.releaseAll();
    await Promise.all([first, second]);
    // The second look-up began after the eviction, so its row is kept; the first one's is not.
    assert.equal((await first)?.userName, 'U1@1');
    assert.equal(cache.peek('U1')?.userName, 'U1@2');
    hooks.resubscribed!();
    assert.equal(cache.peek('U1'), undefined);
  });

  it('runs at most two look-ups at once; misses meanwhile wait and go together', async () => {
    const { database } = fakeDatabase();
    const l = recordingLoader();
    const cache = await createUserCache(database, { loadMany: l.loadMany });
    l.holdAnswers(true);
    const a = cache.member('A');
    await turn();
    const b = cache.member('B');
    await turn();
    const waiting = ['C', 'D', 'E'].map((id) => cache.member(id));
    await turn();
    await turn();
    assert.deepEqual(l.calls, [['A'], ['B']]);
    l.holdAnswers(false);
    l.releaseAll();
    await Promise.all([a, b, ...waiting]);
    assert.deepEqual(l.calls, [['A'], ['B'], ['C', 'D', 'E']]);
  });

  it('fails every caller of a failed look-up, and tries again on the next call', async () => {
    const { database } = fakeDatabase();
    let fail = true;
    const cache = await createUserCache(database, {
      loadMany: async (ids) => {
        if (fail) throw new Error('database down');
        return ids.map((id) => row(id));
      },
    });
    const results = await Promise.allSettled([
      cache.member('U1'),
      cache.member('U2'),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    fail = false;
    assert.equal((await cache.member('U1'))?.id, 'U1');
  });
});

for (const driver of DRIVERS) {
  describe(`member reads through the cache (${driver})`, () => {
    const suite = memberSuite(driver);
    const { ids, as, post } = suite;

    const readPro1 = async (app = suite.h.app) =>
      (await call(app, '/user/read', { id: ids.pro1 }, as('ama1'))).json
        .body as { userName: string; likeCount: number; bio?: string };

    it('shows a member their own update and a like at once', async () => {
      await readPro1(); // now cached
      const r = await post('pro1', '/user/update', {
        bio: 'キャッシュ越しの更新',
      });
      assert.equal(r.status, 200);
      assert.equal((await readPro1()).bio, 'キャッシュ越しの更新');
      const before = (await readPro1()).likeCount;
      // ama1's like of pro1, taken back then given again.
      const like = (path: string) =>
        suite.expect(
          'ama1',
          path,
          { userId: ids.ama1, likeUserId: ids.pro1 },
          200,
        );
      const del = await like('/user/likeDelete');
      const unliked = (await readPro1()).likeCount;
      await like('/user/likeCreate');
      assert.equal((await readPro1()).likeCount, unliked + 1);
      assert.equal(
        unliked,
        before - (del.json.body as { deletedCount: number }).deletedCount,
      );
    });

    it('looks members up in one statement whatever their number, never a buyer or an unknown id', async () => {
      const buyer = ids.ama2!;
      await suite.h.database.db
        .update(users)
        .set({ type: 'buyer' })
        .where(eq(users.id, buyer));
      try {
        for (const wanted of [
          [ids.pro1!, ids.ama1!, buyer, 'no-such-member'],
          [ids.ama1!],
          [ids.pro1!, 'another-unknown'],
        ]) {
          const fresh = await createUserCache(suite.h.database);
          const rows = await Promise.all(wanted.map((id) => fresh.member(id)));
          assert.deepEqual(
            rows.map((r) => r?.id),
            wanted.map((id) =>
              id === ids.pro1 || id === ids.ama1 ? id : undefined,
            ),
          );
          assert.deepEqual(fresh.lookups(), { queries: 1, ids: wanted.length });
          await fresh.close();
        }
      } finally {
        await suite.h.database.db
          .update(users)
          .set({ type: 'amature' })
          .where(eq(users.id, buyer));
      }
    });

    it('drops a row changed outside the app (the trigger notifies)', async () => {
      await readPro1();
      await suite.h.database.db
        .update(users)
        .set({ userName: sql`'外部ツールで変更'` })
        .where(eq(users.id, ids.pro1!));
      let seen = '';
      for (let i = 0; i < 50 && seen !== '外部ツールで変更'; i++) {
        seen = (await readPro1()).userName;
        if (seen !== '外部ツールで変更')
          await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(seen, '外部ツールで変更');
    });

    if (driver === 'postgres') {
      it('another instance on the same database sees a change after its notification', async () => {
        const second = await secondInstance(suite.h);
        const app2 = second.app;
        try {
          await readPro1(app2); // cached on the second instance
          await post('pro1', '/user/update', {
            userName: '別インスタンスで更新',
          });
          const started = Date.now();
          let seen = '';
          while (
            seen !== '別インスタンスで更新' &&
            Date.now() - started < 2000
          ) {
            seen = (await readPro1(app2)).userName;
            if (seen !== '別インスタンスで更新')
              await new Promise((r) => setTimeout(r, 5));
          }
          assert.equal(seen, '別インスタンスで更新');
        } finally {
          await second.close();
        }
      });
    }
  });
}
