import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { news } from '../../src/db/schema.js';
import { call, DRIVERS, harness, type Harness } from '../helper.js';

type NewsItem = {
  id: string;
  title: string;
  publishedAt: string;
  body: string;
};

for (const driver of DRIVERS) {
  describe(`news (${driver})`, () => {
    let h: Harness;
    let scheduledId: string;
    before(async () => {
      h = await harness(driver);
      scheduledId = 'SCHEDULEDNEWS0000000000000';
      await h.database.db.insert(news).values({
        id: scheduledId,
        title: '未来の記事',
        body: 'まだ公開されない',
        publishedAt: new Date(Date.now() + 3_600_000),
      });
    });
    after(() => h.close());

    it('readAll lists published news newest first, default size 20', async () => {
      const r = await call(h.app, '/news/readAll', {});
      assert.equal(r.status, 200);
      const items = r.json.body as NewsItem[];
      assert.ok(items.length >= 5);
      const times = items.map((n) => Date.parse(n.publishedAt));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      assert.ok(
        times.every((t) => t <= Date.now()),
        'no scheduled news',
      );
      assert.ok(!items.some((n) => n.id === scheduledId));
      for (const n of items) assert.ok(n.title && n.body && n.id);
    });

    it('readAll pages with page and size, and bounds size to 1..50', async () => {
      const all = (await call(h.app, '/news/readAll', { size: 50 })).json
        .body as NewsItem[];
      const p1 = (await call(h.app, '/news/readAll', { page: 1, size: 2 })).json
        .body as NewsItem[];
      const p2 = (await call(h.app, '/news/readAll', { page: 2, size: 2 })).json
        .body as NewsItem[];
      assert.deepEqual(
        p1.map((n) => n.id),
        all.slice(0, 2).map((n) => n.id),
      );
      assert.deepEqual(
        p2.map((n) => n.id),
        all.slice(2, 4).map((n) => n.id),
      );
      const far = (await call(h.app, '/news/readAll', { page: 999 })).json
        .body as NewsItem[];
      assert.deepEqual(far, []);
      for (const bad of [
        { size: 0 },
        { size: 51 },
        { page: 0 },
        { page: -1 },
        { size: 1.5 },
      ])
        assert.equal(
          (await call(h.app, '/news/readAll', bad)).json.code,
          'ValidationError',
          JSON.stringify(bad),
        );
    });

    it('read returns one published item, and null for unknown or scheduled ids', async () => {
      const first = (
        (await call(h.app, '/news/readAll', { size: 1 })).json
          .body as NewsItem[]
      )[0]!;
      const one = await call(h.app, '/news/read', { id: first.id });
      assert.deepEqual(one.json.body, first);
      assert.equal(
        (await call(h.app, '/news/read', { id: 'NOSUCHID' })).json.body,
        null,
      );
      assert.equal(
        (await call(h.app, '/news/read', { id: scheduledId })).json.body,
        null,
      );
      const viaQuery = await call(h.app, '/news/read', undefined, {
        query: `id=${first.id}`,
      });
      assert.equal((viaQuery.json.body as NewsItem).id, first.id);
    });

    it('read requires a well-formed id', async () => {
      assert.equal(
        (await call(h.app, '/news/read', {})).json.code,
        'ValidationError',
      );
      assert.equal(
        (await call(h.app, '/news/read', { id: '../etc' })).json.code,
        'ValidationError',
      );
      assert.equal(
        (await call(h.app, '/news/read', { id: 'x'.repeat(65) })).json.code,
        'ValidationError',
      );
    });
  });
}
