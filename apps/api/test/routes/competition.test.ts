import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { competitions, users } from '../../src/db/schema.js';
import { signAccessToken } from '../../src/plugins/auth.js';
import { call, DRIVERS, harness, type Harness } from '../helper.js';

type Comp = {
  id: string;
  name: string;
  date: string;
  status: string;
  venue: string;
  results: { rank: number }[];
};

for (const driver of DRIVERS) {
  describe(`competition/read (${driver})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(driver);
      await h.database.db.insert(competitions).values({
        id: 'PERCENTCOMP',
        name: '100%達成_記念杯',
        date: '2027-01-10',
        venue: '記念コース',
        status: 'open',
      });
    });
    after(() => h.close());

    const read = async (
      filter: Record<string, unknown>,
      headers?: Record<string, string>,
    ) => {
      const r = await call(
        h.app,
        '/competition/read',
        filter,
        headers ? { headers } : {},
      );
      assert.equal(r.status, 200, JSON.stringify(r.json));
      return r.json.body as Comp[];
    };

    it('shows anonymous visitors every competition but drafts, date ascending', async () => {
      const list = await read({});
      assert.ok(list.length >= 5);
      assert.ok(list.every((c) => c.status !== 'draft'));
      const dates = list.map((c) => c.date);
      assert.deepEqual(dates, [...dates].sort());
      const finished = list.filter((c) => c.status === 'finished');
      assert.ok(finished.length >= 2);
      assert.ok(finished.every((c) => c.results.length > 0));
      assert.deepEqual(
        finished[0]!.results.map((x) => x.rank),
        [...finished[0]!.results.map((x) => x.rank)].sort((a, b) => a - b),
      );
    });

    it('filters by status, date range, id and keyword', async () => {
      assert.ok(
        (await read({ status: 'finished' })).every(
          (c) => c.status === 'finished',
        ),
      );
      const all = await read({});
      const mid = all[Math.floor(all.length / 2)]!.date;
      assert.ok((await read({ from: mid })).every((c) => c.date >= mid));
      assert.ok((await read({ to: mid })).every((c) => c.date <= mid));
      const one = await read({ id: all[0]!.id });
      assert.deepEqual(
        one.map((c) => c.id),
        [all[0]!.id],
      );
      const kw = await read({ keyword: 'ウィンター' });
      assert.ok(
        kw.length >= 1 && kw.every((c) => c.name.includes('ウィンター')),
      );
      // % and _ are literal characters, not wildcards.
      assert.deepEqual(
        (await read({ keyword: '100%' })).map((c) => c.id),
        ['PERCENTCOMP'],
      );
      assert.deepEqual(
        await read({ keyword: '%' }),
        (await read({})).filter((c) => c.name.includes('%')),
      );
    });

    it('hides drafts from anonymous callers even when asked for them', async () => {
      assert.deepEqual(await read({ status: 'draft' }), []);
    });

    it('shows drafts to admins only', async () => {
      // Tokens are honoured only for members that exist (docs/security.md TK-11).
      await h.database.db.insert(users).values(
        (['admin', 'pro'] as const).map((type) => ({
          id: type.toUpperCase(),
          type,
          email: `${type}-draft@example.jp`,
          passwordHash: 'x',
          userName: type,
        })),
      );
      const admin = signAccessToken(h.app, { id: 'ADMIN', type: 'admin' });
      const pro = signAccessToken(h.app, { id: 'PRO', type: 'pro' });
      assert.ok(
        (await read({ status: 'draft' }, { authorization: `Bearer ${admin}` }))
          .length >= 1,
      );
      assert.deepEqual(
        await read({ status: 'draft' }, { authorization: `Bearer ${pro}` }),
        [],
      );
    });

    it('refuses a bad bearer token with InvalidAccessToken rather than serving it as anonymous', async () => {
      const r = await call(
        h.app,
        '/competition/read',
        {},
        { headers: { authorization: 'Bearer not.a.jwt' } },
      );
      assert.equal(r.status, 401);
      assert.equal(r.json.code, 'InvalidAccessToken');
    });

    it('validates its filters', async () => {
      for (const bad of [
        { status: 'weird' },
        { from: '2026-13-01' },
        { to: '20261201' },
        { keyword: ' ' },
        { extra: 1 },
      ])
        assert.equal(
          (await call(h.app, '/competition/read', bad)).json.code,
          'ValidationError',
          JSON.stringify(bad),
        );
    });
  });
}

for (const driver of DRIVERS) {
  describe(`competition/update (${driver})`, () => {
    let h: Harness;
    let auth: Record<string, string>;
    before(async () => {
      h = await harness(driver);
      await h.database.db.insert(users).values({
        id: 'UPDATEADMIN',
        type: 'admin',
        email: 'admin-update@example.jp',
        passwordHash: 'x',
        userName: 'admin',
      });
      auth = {
        authorization: `Bearer ${signAccessToken(h.app, { id: 'UPDATEADMIN', type: 'admin' })}`,
      };
      await h.database.db.insert(competitions).values({
        id: 'CLEARCOMP',
        name: '消去テスト杯',
        date: '2027-03-01',
        venue: 'テストコース',
        status: 'open',
        capacity: 40,
        entryFee: 5000,
        entryDeadline: '2027-02-20',
      });
    });
    after(() => h.close());

    const update = (body: Record<string, unknown>) =>
      call(h.app, '/competition/update', body, { headers: auth });
    const readOne = async () =>
      (
        await call(
          h.app,
          '/competition/read',
          { id: 'CLEARCOMP' },
          { headers: auth },
        )
      ).json.body as Record<string, unknown>[];

    it('clears capacity and entryFee sent as null, and the deadline sent as empty', async () => {
      const r = await update({
        id: 'CLEARCOMP',
        capacity: null,
        entryFee: null,
        entryDeadline: '',
      });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.equal(r.json.body, 1);
      const [c] = await readOne();
      assert.ok(c);
      assert.equal('capacity' in c, false);
      assert.equal('entryFee' in c, false);
      assert.equal('entryDeadline' in c, false);
      // Left out, a field keeps its value.
      await update({ id: 'CLEARCOMP', capacity: 30, entryFee: 0 });
      await update({ id: 'CLEARCOMP', name: '消去テスト杯（改）' });
      const [kept] = await readOne();
      assert.equal(kept?.capacity, 30);
      assert.equal(kept?.entryFee, 0);
    });

    it('answers 0 for a competition that is not there', async () => {
      const r = await update({ id: 'NOSUCHCOMP', capacity: null });
      assert.equal(r.status, 200);
      assert.equal(r.json.body, 0);
    });

    it('refuses null for a field that cannot be cleared', async () => {
      for (const bad of [
        { name: null },
        { date: null },
        { venue: null },
        { status: null },
        { capacity: 0 },
        { entryFee: -1 },
      ]) {
        const r = await update({ id: 'CLEARCOMP', ...bad });
        assert.equal(r.json.code, 'ValidationError', JSON.stringify(bad));
      }
    });
  });
}
