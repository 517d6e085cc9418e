import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  auditLog,
  competitions,
  contacts,
  news,
  users,
} from '../../src/db/schema.js';
import { call, DRIVERS, memberSuite } from '../helper.js';

type Comp = {
  id: string;
  name: string;
  status: string;
  results: { rank: number; playerName: string; score?: number }[];
};
type N = { id: string; title: string; publishedAt: string };

for (const driver of DRIVERS) {
  describe(`admin operations (${driver})`, () => {
    const suite = memberSuite(driver);
    /** As that member, or as a visitor (null). */
    const post = (who: string | null, p: string, body: unknown) =>
      who ? suite.post(who, p, body) : call(suite.h.app, p, body);
    const snapshot = async () => ({
      c: await suite.h.database.db.select().from(competitions),
      n: await suite.h.database.db.select().from(news),
      k: await suite.h.database.db.select().from(contacts),
    });

    before(async () => {
      await call(suite.h.app, '/contact/create', {
        name: '問い合わせ 太郎',
        email: 'q@example.jp',
        category: 'その他',
        message: '質問です',
      });
    });

    it('commits an admin change with its audit row or not at all', async () => {
      const [comp] = await suite.h.database.db.select().from(competitions);
      const [msg] = await suite.h.database.db.select().from(contacts);
      const before = await snapshot();
      const auditBefore = await suite.h.database.db.select().from(auditLog);
      // Every new audit row fails from now on; the rows already there stay valid.
      await suite.h.database.db.execute(
        sql`alter table audit_log add constraint audit_refused check (false) not valid`,
      );
      try {
        for (const [path, body] of [
          ['/news/create', { title: '監査テスト', body: '本文です。' }],
          ['/competition/update', { id: comp!.id, name: '監査テスト大会' }],
          ['/contact/update', { id: msg!.id, handled: !msg!.handled }],
          ['/competition/delete', { id: comp!.id }],
        ] as const) {
          const r = await post('admin', path, body);
          assert.equal(r.status, 500, path);
          assert.equal(r.json.code, 'InternalError');
        }
      } finally {
        await suite.h.database.db.execute(
          sql`alter table audit_log drop constraint audit_refused`,
        );
      }
      assert.deepEqual(
        await snapshot(),
        before,
        'no change without its audit row',
      );
      assert.equal(
        (await suite.h.database.db.select().from(auditLog)).length,
        auditBefore.length,
      );
      // And with the audit table writable, the change and its row commit together.
      const ok = await post('admin', '/news/create', {
        title: '監査テスト',
        body: '本文です。',
      });
      assert.equal(ok.status, 200);
      const rows = await suite.h.database.db.select().from(auditLog);
      assert.equal(rows.length, auditBefore.length + 1);
    });

    it('refuses every admin call to amateurs, pros (403) and visitors (401), changing nothing', async () => {
      const [comp] = await suite.h.database.db.select().from(competitions);
      const [item] = await suite.h.database.db.select().from(news);
      const [msg] = await suite.h.database.db.select().from(contacts);
      const calls: [string, unknown][] = [
        [
          '/competition/create',
          {
            name: '不正な大会',
            date: '2027-01-01',
            venue: 'X',
            status: 'open',
          },
        ],
        ['/competition/update', { id: comp!.id, name: '改ざん' }],
        ['/competition/delete', { id: comp!.id }],
        ['/news/create', { title: '不正', body: '本文' }],
        ['/news/update', { id: item!.id, title: '改ざん' }],
        ['/news/delete', { id: item!.id }],
        ['/news/adminList', {}],
        ['/contact/list', {}],
        ['/contact/update', { id: msg!.id, handled: true }],
        ['/audit/list', {}],
      ];
      const before = await snapshot();
      for (const [p, body] of calls) {
        for (const who of ['ama1', 'pro1']) {
          const r = await post(who, p, body);
          assert.equal(r.status, 403, `${who} ${p}`);
          assert.equal(r.json.code, 'Forbidden');
        }
        const anon = await post(null, p, body);
        assert.equal(anon.status, 401, `anonymous ${p}`);
        assert.equal(anon.json.code, 'InvalidAccessToken');
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('creates, updates with results, and deletes competitions, answering counts; drafts stay hidden', async () => {
      const created = await post('admin', '/competition/create', {
        name: '冬季ドラフト杯',
        date: '2027-02-01',
        venue: '若洲ゴルフリンクス',
        area: '東京都',
        status: 'draft',
        entryFee: 15000,
        capacity: 40,
        entryDeadline: '2027-01-20',
        description: '準備中の大会',
      });
      assert.equal(created.status, 200, JSON.stringify(created.json));
      assert.equal(created.json.body, 1);
      const drafts = (
        await post('admin', '/competition/read', { keyword: '冬季ドラフト杯' })
      ).json.body as Comp[];
      assert.equal(drafts.length, 1);
      const id = drafts[0]!.id;
      assert.deepEqual(
        (await post(null, '/competition/read', { keyword: '冬季ドラフト杯' }))
          .json.body,
        [],
      );
      assert.deepEqual(
        (await post('ama1', '/competition/read', { id })).json.body,
        [],
      );

      const upd = await post('admin', '/competition/update', {
        id,
        status: 'finished',
        results: [
          { rank: 2, playerName: '山田 恵', score: 80 },
          { rank: 1, playerName: '小林 誠', score: 74 },
        ],
      });
      assert.equal(upd.json.body, 1);
      const pub = (await post(null, '/competition/read', { id })).json
        .body as Comp[];
      assert.equal(pub[0]!.status, 'finished');
      assert.deepEqual(
        pub[0]!.results.map((r) => r.playerName),
        ['小林 誠', '山田 恵'],
      );
      assert.equal(
        (
          await post('admin', '/competition/update', {
            id: 'NOSUCHCOMP',
            name: 'x',
          })
        ).json.body,
        0,
      );
      for (const bad of [
        { name: '', date: '2027-01-01', venue: 'x', status: 'open' },
        { name: 'x', date: '2027-13-01', venue: 'x', status: 'open' },
        { name: 'x', date: '2027-01-01', venue: 'x', status: 'bogus' },
        {
          name: 'x',
          date: '2027-01-01',
          venue: 'x',
          status: 'open',
          results: [{ rank: 0, playerName: 'a' }],
        },
      ])
        assert.equal(
          (await post('admin', '/competition/create', bad)).json.code,
          'ValidationError',
          JSON.stringify(bad),
        );
      assert.deepEqual(
        (await post('admin', '/competition/delete', { id })).json.body,
        { deletedCount: 1 },
      );
      assert.deepEqual(
        (await post('admin', '/competition/delete', { id })).json.body,
        { deletedCount: 0 },
      );
    });

    it('publishes now, schedules for later, edits and deletes news; scheduled items stay hidden', async () => {
      const now = (
        await post('admin', '/news/create', {
          title: '今すぐ公開',
          body: '本文です。',
          category: 'お知らせ',
        })
      ).json.body as N;
      assert.ok(Math.abs(Date.parse(now.publishedAt) - Date.now()) < 10_000);
      const later = (
        await post('admin', '/news/create', {
          title: '来週公開',
          body: '予約投稿です。',
          publishedAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        })
      ).json.body as N;
      const pub = (await post(null, '/news/readAll', { size: 50 })).json
        .body as N[];
      assert.ok(pub.some((n) => n.id === now.id));
      assert.ok(!pub.some((n) => n.id === later.id));
      assert.equal(
        (await post(null, '/news/read', { id: later.id })).json.body,
        null,
      );
      const all = (await post('admin', '/news/adminList', {})).json.body as N[];
      assert.ok(all.some((n) => n.id === later.id));
      const edited = (
        await post('admin', '/news/update', {
          id: later.id,
          title: '公開しました',
          publishedAt: new Date(Date.now() - 1000).toISOString(),
        })
      ).json.body as N;
      assert.equal(edited.title, '公開しました');
      assert.equal(
        ((await post(null, '/news/read', { id: later.id })).json.body as N)
          .title,
        '公開しました',
      );
      assert.equal(
        (await post('admin', '/news/update', { id: 'NOSUCHNEWS', title: 'x' }))
          .json.code,
        'NotFound',
      );
      assert.equal(
        (
          await post('admin', '/news/create', {
            title: 'x',
            body: 'y',
            imageUrl: 'javascript:alert(1)',
          })
        ).json.code,
        'ValidationError',
      );
      assert.deepEqual(
        (await post('admin', '/news/delete', { id: now.id })).json.body,
        { deletedCount: 1 },
      );
      assert.equal(
        (await post(null, '/news/read', { id: now.id })).json.body,
        null,
      );
    });

    it('lists contact messages and marks them handled', async () => {
      const list = (await post('admin', '/contact/list', { handled: false }))
        .json.body as { id: string; email: string; handled: boolean }[];
      const msg = list.find((m) => m.email === 'q@example.jp')!;
      assert.equal(msg.handled, false);
      const r = await post('admin', '/contact/update', {
        id: msg.id,
        handled: true,
      });
      assert.equal((r.json.body as { handled: boolean }).handled, true);
      const open = (await post('admin', '/contact/list', { handled: false }))
        .json.body as { id: string }[];
      assert.ok(!open.some((m) => m.id === msg.id));
      assert.equal(
        (
          await post('admin', '/contact/update', {
            id: 'NOSUCH',
            handled: true,
          })
        ).json.code,
        'NotFound',
      );
    });

    it('keeps an audit log of admin changes: who, what, when', async () => {
      const entries = (await post('admin', '/audit/list', { size: 200 })).json
        .body as {
        actorId: string;
        action: string;
        at: string;
        targetId?: string;
      }[];
      const actions = new Set(entries.map((e) => e.action));
      for (const a of [
        'competition.create',
        'competition.update',
        'competition.delete',
        'news.create',
        'news.update',
        'news.delete',
        'contact.update',
      ])
        assert.ok(actions.has(a), a);
      const [admin] = (await suite.h.database.db.select().from(users)).filter(
        (u) => u.type === 'admin',
      );
      assert.ok(
        entries.every(
          (e) => e.actorId === admin!.id && !Number.isNaN(Date.parse(e.at)),
        ),
      );
      assert.equal(
        (await suite.h.database.db.select().from(auditLog)).length,
        entries.length,
      );
    });
  });
}
