import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { eq, like, sql } from 'drizzle-orm';
import sharp from 'sharp';
import {
  mediaObjects,
  proSearch,
  schedules,
  users,
} from '../../src/db/schema.js';
import { trigramIndexMissing } from '../../src/db/database.js';
import { likePattern, rowsOf } from '../../src/repositories/queries.js';
import { call, DRIVERS, eventually, memberSuite } from '../helper.js';
import { assertRefusals } from '../support/refusals.js';
import { SPEC_PATHS } from '../support/routes.js';

type U = {
  id: string;
  type: string;
  userName: string;
  email?: string;
  likeCount: number;
  imageInfo: { keyName: string; url: string }[];
  area?: string;
  bio?: string;
  pro?: { lessonFee?: number };
};
type Like = {
  likeId: string;
  userId: string;
  likeUserId: string;
  userType: string;
};

export async function pngWithText(text = 'hello'): Promise<Buffer> {
  return sharp({
    create: { width: 40, height: 30, channels: 3, background: '#2a7a4b' },
  })
    .png()
    .withMetadata({ exif: { IFD0: { ImageDescription: text } } })
    .toBuffer();
}
export async function jpegWithGps(): Promise<Buffer> {
  return sharp({
    create: { width: 60, height: 40, channels: 3, background: '#ffcc00' },
  })
    .jpeg()
    .withExif({
      IFD0: { Make: 'SecretCam', ImageDescription: 'home-location' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 40/1 0/1' },
    })
    .toBuffer();
}

for (const driver of DRIVERS) {
  describe(`members, likes and storage (${driver})`, () => {
    const suite = memberSuite(driver);
    const { ids, as, post } = suite;

    it('requires a bearer token on every member call', async () => {
      const memberCalls = SPEC_PATHS.filter(
        (p) => /^\/(user|users|storage)\//.test(p) && p !== '/user/create',
      );
      for (const p of memberCalls) {
        const r = await call(suite.h.app, p, {});
        assert.equal(r.status, 401, p);
        assert.equal(r.json.code, 'InvalidAccessToken', p);
      }
    });

    describe('profiles', () => {
      it('reads a member; the address only for the member and admins; null for an unknown id', async () => {
        const own = (await post('ama1', '/user/read', { id: ids.ama1 })).json
          .body as U;
        assert.equal(own.email, 'ama1@example.jp');
        assert.equal(own.type, 'amature');
        const other = (await post('ama2', '/user/read', { id: ids.ama1 })).json
          .body as U;
        assert.equal(other.email, undefined);
        assert.equal(other.userName, own.userName);
        const byAdmin = (await post('admin', '/user/read', { id: ids.ama1 }))
          .json.body as U;
        assert.equal(byAdmin.email, 'ama1@example.jp');
        const pro = (await post('ama1', '/user/read', { id: ids.pro1 })).json
          .body as U;
        assert.equal(pro.pro!.lessonFee, 23000);
        assert.equal(
          (await post('ama1', '/user/read', { id: 'NOSUCHUSER' })).json.body,
          null,
        );
        const r = await post('ama1', '/user/read', {});
        assert.equal(r.json.code, 'ValidationError');
      });

      it("updates one's own profile; protected fields may be sent back unchanged, never changed", async () => {
        const before = (await post('ama2', '/user/read', { id: ids.ama2 })).json
          .body as U;
        // Asking to change what only the server sets: 400 naming the field, nothing changes.
        for (const [field, value] of [
          ['type', 'admin'],
          ['email', 'hijack@example.jp'],
          ['createdAt', '2000-01-01T00:00:00.000Z'],
        ] as const) {
          const refused = await post('ama2', '/user/update', {
            ...before,
            [field]: value,
            userName: '乗っ取り',
          });
          assert.equal(refused.status, 400, field);
          assert.equal(refused.json.code, 'ValidationError');
        }
        // The profile as read, with edits: the echoed protected fields are ignored.
        // A counter that follows others' likes is ignored, even when it differs.
        const r = await post('ama2', '/user/update', {
          ...before,
          likeCount: 999,
          userName: '  中村 あゆみ（更新）',
          bio: '新しい自己紹介です。',
          area: '千葉県',
          amateur: { averageScore: 104 },
        });
        assert.equal(r.status, 200, JSON.stringify(r.json));
        const after = r.json.body as U & { amateur: { averageScore: number } };
        assert.equal(after.userName, '中村 あゆみ（更新）');
        assert.equal(after.bio, '新しい自己紹介です。');
        assert.equal(after.area, '千葉県');
        assert.equal(after.amateur.averageScore, 104);
        assert.equal(after.type, 'amature');
        assert.equal(after.email, 'ama2@example.jp');
        assert.equal(after.likeCount, before.likeCount);
        const [row] = await suite.h.database.db
          .select()
          .from(users)
          .where(eq(users.id, ids.ama2!));
        assert.equal(row!.type, 'amature');
        assert.equal(row!.email, 'ama2@example.jp');
        // Clearing an optional field with "".
        assert.equal(
          ((await post('ama2', '/user/update', { bio: '' })).json.body as U)
            .bio,
          undefined,
        );
        // Numbers are cleared with null.
        const cleared = (
          await post('ama2', '/user/update', {
            amateur: { averageScore: null },
          })
        ).json.body as U & { amateur: { averageScore?: number } };
        assert.equal(cleared.amateur.averageScore, undefined);
      });

      it("refuses another member's profile (403, nothing changed) but lets admins edit", async () => {
        const before = await suite.h.database.db
          .select()
          .from(users)
          .where(eq(users.id, ids.pro1!));
        const r = await post('ama1', '/user/update', {
          id: ids.pro1,
          userName: '乗っ取り',
        });
        assert.equal(r.status, 403);
        assert.equal(r.json.code, 'Forbidden');
        assert.equal(r.json.msg, 'この操作を行う権限がありません。');
        assert.deepEqual(
          await suite.h.database.db
            .select()
            .from(users)
            .where(eq(users.id, ids.pro1!)),
          before,
        );
        const admin = await post('admin', '/user/update', {
          id: ids.pro1,
          bio: '運営による修正',
        });
        assert.equal((admin.json.body as U).bio, '運営による修正');
      });

      it('refuses unknown fields, bad areas and over-long text', async () => {
        for (const body of [
          { role: 'admin' },
          { area: '東京' },
          { bio: 'あ'.repeat(1001) },
          { userName: '' },
          { pro: { lessonFee: -1 } },
          { amateur: { averageScore: 'x' } },
        ]) {
          const r = await post('ama3', '/user/update', body);
          assert.equal(r.json.code, 'ValidationError', JSON.stringify(body));
        }
      });

      it('gets members by id list in the order asked, skipping unknown ids, at most 100', async () => {
        const list = [ids.pro2, 'NOSUCHUSER', ids.ama3, ids.pro1];
        const r = await post('ama1', '/user/getByIdList', { idList: list });
        assert.deepEqual(
          (r.json.body as U[]).map((u) => u.id),
          [ids.pro2, ids.ama3, ids.pro1],
        );
        const q = await call(suite.h.app, '/user/getByIdList', undefined, {
          query: `idList=${ids.pro1},${ids.pro2}`,
          ...as('ama1'),
        });
        assert.deepEqual(
          (q.json.body as U[]).map((u) => u.id),
          [ids.pro1, ids.pro2],
        );
        assert.equal(
          (
            await post('ama1', '/user/getByIdList', {
              idList: Array(101).fill(ids.pro1),
            })
          ).json.code,
          'ValidationError',
        );
        assert.ok((r.json.body as U[]).every((u) => u.email === undefined));
      });

      it('lists amateurs for pros and admins only', async () => {
        for (const who of ['pro1', 'admin']) {
          const all = (await post(who, '/users/amature/all', { size: 3 })).json
            .body as U[];
          assert.equal(all.length, 3);
          assert.ok(all.every((u) => u.type === 'amature'));
          const newer = (await post(who, '/users/amature/newer', {})).json
            .body as U[];
          assert.ok(
            newer.length >= 1 && newer.every((u) => u.type === 'amature'),
          );
        }
        for (const p of ['/users/amature/all', '/users/amature/newer'])
          assert.equal((await post('ama1', p, {})).json.code, 'Forbidden');
      });

      it('finds a keyword inside words: two characters, one, kana and latin in any case; a pro edited is found by the new text', async () => {
        const names = async (keyword: string) => {
          const r = await post('ama1', '/users/pro/condition', { keyword });
          assert.equal(r.status, 200, JSON.stringify(r.json));
          return (r.json.body as U[]).map((u) => u.userName);
        };
        const id = `GRAMS${Date.now()}`;
        await suite.h.database.db.insert(users).values({
          id,
          type: 'pro',
          verified: true,
          email: `${id.toLowerCase()}@example.jp`,
          passwordHash: 'x',
          userName: '検索 試験',
          nameKana: 'けんさく しけん',
          homeCourse: 'Keyword府中カントリー倶楽部',
          specialty: '100%_バンカー',
        });
        try {
          // Inserted as a SQL tool would: the search's cached pages learn it
          // from the trigger's notice.
          assert.ok(
            await eventually(async () =>
              (await names('府中')).includes('検索 試験'),
            ),
          );
          for (const k of [
            '府中',
            '府',
            'カントリ',
            '中カ',
            'keyword',
            'KEYWORD',
            'しけん',
            '100%',
            '%_',
          ])
            assert.ok((await names(k)).includes('検索 試験'), k);
          // Not there, or across two fields (name then kana): never a match.
          for (const k of ['府中x', '験け', '0%x', '_バ_'])
            assert.ok(!(await names(k)).includes('検索 試験'), k);
          // Written as a SQL tool would, as above (an edit through the app is
          // seen at once, search-cache.test.ts).
          await suite.h.database.db
            .update(users)
            .set({ homeCourse: '霞ヶ関カンツリー倶楽部' })
            .where(eq(users.id, id));
          assert.ok(
            await eventually(async () =>
              (await names('霞ヶ関')).includes('検索 試験'),
            ),
          );
          assert.ok(!(await names('府中')).includes('検索 試験'));
          // The search reads pro_search (a pro missing from it is not found),
          // and the trigger writes it back when the text changes again.
          await suite.h.database.db
            .delete(proSearch)
            .where(eq(proSearch.userId, id));
          assert.ok(
            await eventually(
              async () => !(await names('霞ヶ関')).includes('検索 試験'),
            ),
          );
          await suite.h.database.db
            .update(users)
            .set({ specialty: 'バンカー' })
            .where(eq(users.id, id));
          assert.ok(
            await eventually(async () =>
              (await names('霞ヶ関')).includes('検索 試験'),
            ),
          );
        } finally {
          await suite.h.database.db.delete(users).where(eq(users.id, id));
        }
      });

      it('finds a keyword of three characters or more through the trigram index, with the same matches as reading every text; trigramIndexMissing tells when it is not there', async () => {
        const { db } = suite.h.database;
        // Migration 0019; on PGlite only if db/pglite.ts loads the extension
        // (the migration skips the index where pg_trgm cannot be installed).
        // Without fastupdate, pending entries would be read by every search
        // until a VACUUM (none on PGlite): as slow as no index.
        const indexes = await rowsOf<{ indexdef: string }>(
          db,
          sql`select indexdef from pg_indexes where tablename = 'pro_search'`,
        );
        assert.ok(
          indexes.some((r) =>
            /gin \(text (\w+\.|"[^"]+"\.)?gin_trgm_ops\) WITH \(fastupdate='?off'?\)/.test(
              r.indexdef,
            ),
          ),
          JSON.stringify(indexes),
        );
        assert.equal(await trigramIndexMissing(db), false);
        await assert.rejects(
          db.transaction(async (tx) => {
            await tx.execute(sql`drop index pro_search_text_trgm_idx`);
            assert.equal(await trigramIndexMissing(tx), true);
            throw new Error('rolled back');
          }),
          /rolled back/,
        );
        const prefix = `TRGM${Date.now()}`;
        const pros = [
          {
            userName: '鈴木 一郎',
            homeCourse: '府中カントリークラブ',
            specialty: 'アプローチ',
          },
          {
            userName: 'Suzuki Taro',
            homeCourse: '小金井カントリー倶楽部',
            specialty: '100%_バンカー',
          },
          {
            userName: '佐藤 花子',
            homeCourse: 'keyword府中',
            specialty: 'パター',
          },
        ];
        await db.insert(users).values(
          pros.map((pro, i) => ({
            ...pro,
            id: `${prefix}${i}`,
            type: 'pro' as const,
            verified: true,
            email: `${prefix.toLowerCase()}${i}@example.jp`,
            passwordHash: 'x',
          })),
        );
        // The search's own predicate (user-repository.ts), the plan forced
        // once through the index and once to read every text.
        const matches = (keyword: string, through: 'index' | 'scan') =>
          db.transaction(async (tx) => {
            for (const off of through === 'index'
              ? ['enable_seqscan', 'enable_indexscan']
              : ['enable_bitmapscan', 'enable_indexscan'])
              await tx.execute(sql`select set_config(${off}, 'off', true)`);
            const query = sql`select user_id from pro_search where text like lower(${likePattern(keyword)})`;
            const plan = (
              await rowsOf<{ 'QUERY PLAN': string }>(tx, sql`explain ${query}`)
            )
              .map((r) => r['QUERY PLAN'])
              .join('\n');
            assert.equal(
              plan.includes('pro_search_text_trgm_idx'),
              through === 'index',
              plan,
            );
            return (await rowsOf<{ user_id: string }>(tx, query))
              .map((r) => r.user_id)
              .filter((id) => id.startsWith(prefix))
              .sort();
          });
        try {
          for (const [keyword, expected] of [
            ['鈴木 一', [0]],
            ['カントリー', [0, 1]],
            ['suzuki', [1]],
            ['SUZUKI TARO', [1]],
            ['100%_', [1]],
            ['%_バ', [1]],
            ['keyword府中', [2]],
            ['府中カ', [0]],
            ['アプローチ', [0]],
            ['プロー', [0]],
            // Across two fields (name, then course): never a match.
            ['一郎府中', []],
            ['子keyword', []],
          ] as const) {
            const want = expected.map((i) => `${prefix}${i}`);
            assert.deepEqual(await matches(keyword, 'index'), want, keyword);
            assert.deepEqual(await matches(keyword, 'scan'), want, keyword);
          }
        } finally {
          await db.delete(users).where(like(users.id, `${prefix}%`));
        }
      });

      it('searches pros by area, keyword, fee range, open date, with sorting and paging', async () => {
        const search = async (q: Record<string, unknown>) => {
          const r = await post('ama1', '/users/pro/condition', q);
          assert.equal(r.status, 200, JSON.stringify(r.json));
          return r.json.body as U[];
        };
        const all = await search({ size: 100 });
        assert.equal(all.length, 5);
        assert.ok(all.every((u) => u.type === 'pro'));
        assert.deepEqual(
          (await search({ area: '大阪府' })).map((u) => u.userName),
          ['田中 由紀'],
        );
        assert.deepEqual(
          (await search({ keyword: 'アプローチ' })).map((u) => u.userName),
          ['高橋 美咲'],
        );
        assert.deepEqual(
          (await search({ keyword: '若洲' })).map((u) => u.userName),
          ['佐藤 健一'],
        );
        const mid = await search({ feeMin: 15000, feeMax: 20000 });
        assert.ok(
          mid.length >= 2 &&
            mid.every(
              (u) => u.pro!.lessonFee! >= 15000 && u.pro!.lessonFee! <= 20000,
            ),
        );
        const byFee = await search({ sort: 'fee' });
        const fees = byFee.map((u) => u.pro!.lessonFee!);
        assert.deepEqual(
          fees,
          [...fees].sort((a, b) => a - b),
        );
        const byLikes = (await search({ sort: 'likes' })).map(
          (u) => u.likeCount,
        );
        assert.deepEqual(
          byLikes,
          [...byLikes].sort((a, b) => b - a),
        );
        const [open] = await suite.h.database.db
          .select()
          .from(schedules)
          .where(eq(schedules.statusRound, 'open'))
          .limit(1);
        const onDate = await search({ date: open!.date });
        assert.ok(onDate.some((u) => u.id === open!.proId));
        assert.deepEqual(await search({ date: '2099-01-01' }), []);
        const p1 = await search({ size: 2, page: 1 });
        const p2 = await search({ size: 2, page: 2 });
        assert.equal(p1.length, 2);
        assert.ok(!p2.some((u) => p1.some((v) => v.id === u.id)));
        for (const bad of [
          { feeMin: 5000, feeMax: 1000 },
          { sort: 'random' },
          { size: 101 },
          { area: 'Tokyo' },
        ])
          assert.equal(
            (await post('ama1', '/users/pro/condition', bad)).json.code,
            'ValidationError',
            JSON.stringify(bad),
          );
        assert.equal(
          ((await post('ama1', '/users/pro/all', { size: 2 })).json.body as U[])
            .length,
          2,
        );
      });
    });

    describe('likes', () => {
      const count = async (id: string) =>
        (await post('ama1', '/user/likeCount', { userType: 'pro', userId: id }))
          .json.body as number;

      it('creates idempotently, counts once, and deletes', async () => {
        const before = await count(ids.pro5!);
        const a = await post('ama4', '/user/likeCreate', {
          userId: ids.ama4,
          likeUserId: ids.pro5,
        });
        assert.equal(a.status, 200, JSON.stringify(a.json));
        const b = await post('ama4', '/user/likeCreate', {
          userId: ids.ama4,
          likeUserId: ids.pro5,
        });
        assert.equal(
          (a.json.body as Like).likeId,
          (b.json.body as Like).likeId,
        );
        assert.equal(await count(ids.pro5!), before + 1);
        const mine = (
          await post('ama4', '/user/like', {
            userType: 'amature',
            userId: ids.ama4,
          })
        ).json.body as Like[];
        assert.equal(mine[0]!.likeUserId, ids.pro5);
        assert.equal(mine[0]!.userType, 'amature');
        const d = await post('ama4', '/user/likeDelete', {
          userId: ids.ama4,
          likeUserId: ids.pro5,
        });
        assert.deepEqual(d.json.body, { deletedCount: 1 });
        assert.deepEqual(
          (
            await post('ama4', '/user/likeDelete', {
              userId: ids.ama4,
              likeUserId: ids.pro5,
            })
          ).json.body,
          { deletedCount: 0 },
        );
        assert.equal(await count(ids.pro5!), before);
      });

      it('keeps the count right under concurrent likes', async () => {
        const before = await count(ids.pro4!);
        await Promise.all(
          Array.from({ length: 8 }, () =>
            post('ama6', '/user/likeCreate', {
              userId: ids.ama6,
              likeUserId: ids.pro4,
            }),
          ),
        );
        assert.equal(await count(ids.pro4!), before + 1);
      });

      it("refuses acting for someone else or liking one's own type (nothing changed)", async () => {
        const before = await count(ids.pro3!);
        const asOther = await post('ama5', '/user/likeCreate', {
          userId: ids.ama4,
          likeUserId: ids.pro3,
        });
        assert.equal(asOther.json.code, 'Forbidden');
        await assertRefusals(post, [
          [
            'ama5',
            '/user/likeCreate',
            { userId: ids.ama5, likeUserId: ids.ama4 },
            'ValidationError',
          ],
          [
            'ama5',
            '/user/likeCreate',
            { userId: ids.ama5, likeUserId: 'NOSUCHUSER' },
            'NotFound',
          ],
          [
            'admin',
            '/user/likeCreate',
            { userId: ids.admin, likeUserId: ids.pro3 },
            'Forbidden',
          ],
          [
            'ama5',
            '/user/likeDelete',
            { userId: ids.ama3, likeUserId: ids.pro3 },
            'Forbidden',
          ],
          [
            'ama5',
            '/user/like',
            { userType: 'amature', userId: ids.ama3 },
            'Forbidden',
          ],
        ]);
        assert.equal(await count(ids.pro3!), before);
        const adminView = await post('admin', '/user/like', {
          userType: 'amature',
          userId: ids.ama3,
        });
        assert.equal(adminView.status, 200);
      });

      it('shows a member who liked them (self or admin only)', async () => {
        const got = (await post('pro1', '/user/likedBy', { userId: ids.pro1 }))
          .json.body as Like[];
        assert.ok(
          got.length >= 1 &&
            got.every(
              (l) => l.likeUserId === ids.pro1 && l.userType === 'amature',
            ),
        );
        assert.equal(
          got.length,
          (
            await post('pro1', '/user/likeCount', {
              userType: 'pro',
              userId: ids.pro1,
            })
          ).json.body,
        );
        assert.equal(
          (await post('pro2', '/user/likedBy', { userId: ids.pro1 })).json.code,
          'Forbidden',
        );
        assert.equal(
          (await post('admin', '/user/likedBy', { userId: ids.pro1 })).status,
          200,
        );
      });

      it('lets a pro like an amateur', async () => {
        const r = await post('pro2', '/user/likeCreate', {
          userId: ids.pro2,
          likeUserId: ids.ama5,
        });
        assert.equal((r.json.body as Like).userType, 'pro');
      });
    });

    describe('storage', () => {
      const b64 = (b: Buffer) => b.toString('base64');
      const mediaFile = (key: string) =>
        path.join(suite.h.dataDir, 'media', key);

      it('stores a photo under users/<id>/, re-encoded without EXIF, served at /media/', async () => {
        const jpeg = await jpegWithGps();
        assert.ok(jpeg.includes(Buffer.from('SecretCam')));
        const r = await post('pro1', '/storage/upload', {
          fileName: '写真.jpg',
          contentType: 'image/jpeg',
          data: b64(jpeg),
        });
        assert.equal(r.status, 200, JSON.stringify(r.json));
        const { keyName, url } = r.json.body as {
          keyName: string;
          url: string;
        };
        assert.match(
          keyName,
          new RegExp(`^users/${ids.pro1}/[A-Za-z0-9_-]{16,64}\\.jpg$`),
        );
        assert.equal(url, `/media/${keyName}`);
        const stored = readFileSync(mediaFile(keyName));
        assert.ok(
          !stored.includes(Buffer.from('SecretCam')) &&
            !stored.includes(Buffer.from('home-location')),
        );
        const served = await suite.h.app.inject({ method: 'GET', url });
        assert.equal(served.statusCode, 200);
        assert.equal(served.headers['x-content-type-options'], 'nosniff');
        assert.match(
          String(served.headers['content-security-policy']),
          /sandbox/,
        );
      });

      it('judges by the bytes: text named .png, SVG, HTML and empty data are refused', async () => {
        const cases: [string, string][] = [
          [
            b64(
              Buffer.from(
                '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
              ),
            ),
            'UnsupportedMediaType',
          ],
          [
            b64(Buffer.from('<html><body>hi</body></html>')),
            'UnsupportedMediaType',
          ],
          [
            b64(
              Buffer.concat([
                Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
                Buffer.from('<html>not really</html>'),
              ]),
            ),
            'UnsupportedMediaType',
          ],
          [b64(Buffer.from('MZ\x90\x00 fake exe')), 'UnsupportedMediaType'],
          ['!!!not-base64!!!', 'ValidationError'],
        ];
        for (const [data, code] of cases) {
          const r = await post('pro1', '/storage/upload', {
            fileName: 'evil.png',
            contentType: 'image/png',
            data,
          });
          assert.equal(r.json.code, code, data.slice(0, 20));
        }
      });

      it('refuses more than 5 MiB decoded with 413', async () => {
        const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0xff);
        big[0] = 0xff;
        big[1] = 0xd8;
        big[2] = 0xff;
        const r = await post('pro1', '/storage/upload', { data: b64(big) });
        assert.equal(r.status, 413);
        assert.equal(r.json.code, 'PayloadTooLarge');
      });

      it('refuses keyNames not of the server form, in every disguise', async () => {
        const bad = [
          '../../etc/passwd',
          '..%2F..%2Fetc%2Fpasswd',
          `users/${ids.pro1}/../../x.jpg`,
          '/etc/passwd',
          `users\\${ids.pro1}\\a.jpg`,
          `users/${ids.pro1}/．．／a.jpg`,
          'C:\\Windows\\x.jpg',
          `users/${ids.pro1}/${'a'.repeat(300)}.jpg`,
          `users/${ids.pro1}/aaaaaaaaaaaaaaaa.svg`,
        ];
        for (const keyName of bad) {
          const r = await post('pro1', '/storage/delete', { keyName });
          assert.equal(r.json.code, 'ValidationError', keyName);
          const q = await call(suite.h.app, '/storage/delete', undefined, {
            query: `keyName=${encodeURIComponent(keyName)}`,
            ...as('pro1'),
          });
          assert.equal(q.json.code, 'ValidationError', keyName);
        }
      });

      it("protects a member's objects: others get 403 and the file stays; admins may delete", async () => {
        const png = await pngWithText();
        const up = (await post('pro2', '/storage/upload', { data: b64(png) }))
          .json.body as { keyName: string };
        assert.match(up.keyName, /\.png$/);
        const upd = await post('ama1', '/storage/update', {
          keyName: up.keyName,
          data: b64(png),
        });
        assert.equal(upd.json.code, 'Forbidden');
        const del = await post('ama1', '/storage/delete', {
          keyName: up.keyName,
        });
        assert.equal(del.json.code, 'Forbidden');
        assert.ok(existsSync(mediaFile(up.keyName)));
        const set = await post('ama1', '/user/updateImageInfo', {
          imageInfo: [{ keyName: up.keyName }],
        });
        assert.equal(set.json.code, 'Forbidden');
        const own = await post('pro2', '/storage/update', {
          keyName: up.keyName,
          data: b64(await pngWithText('second')),
        });
        assert.equal(own.status, 200);
        const wrongKind = await post('pro2', '/storage/update', {
          keyName: up.keyName,
          data: b64(await jpegWithGps()),
        });
        assert.equal(wrongKind.json.code, 'UnsupportedMediaType');
        const gone = await post('admin', '/storage/delete', {
          keyName: up.keyName,
        });
        assert.deepEqual(gone.json.body, { deletedCount: 1 });
        assert.ok(!existsSync(mediaFile(up.keyName)));
        assert.equal(
          (await post('pro2', '/storage/delete', { keyName: up.keyName })).json
            .code,
          'NotFound',
        );
      });

      it('sets up to 6 photos from own uploads; deleting one takes it off the profile', async () => {
        const keys: string[] = [];
        for (let i = 0; i < 7; i++)
          keys.push(
            (
              (
                await post('pro3', '/storage/upload', {
                  data: b64(await pngWithText(`p${i}`)),
                })
              ).json.body as { keyName: string }
            ).keyName,
          );
        const seven = await post('pro3', '/user/updateImageInfo', {
          imageInfo: keys.map((keyName) => ({ keyName })),
        });
        assert.equal(seven.json.code, 'ValidationError');
        const dup = await post('pro3', '/user/updateImageInfo', {
          imageInfo: [{ keyName: keys[0] }, { keyName: keys[0] }],
        });
        assert.equal(dup.json.code, 'ValidationError');
        const six = await post('pro3', '/user/updateImageInfo', {
          imageInfo: keys
            .slice(0, 6)
            .reverse()
            .map((keyName) => ({ keyName, url: 'https://evil.example/x' })),
        });
        assert.equal(six.status, 200);
        const u = six.json.body as U;
        assert.deepEqual(
          u.imageInfo.map((i) => i.keyName),
          keys.slice(0, 6).reverse(),
        );
        assert.ok(u.imageInfo.every((i) => i.url === `/media/${i.keyName}`));
        await post('pro3', '/storage/delete', { keyName: keys[5] });
        const after = (await post('pro3', '/user/read', { id: ids.pro3 })).json
          .body as U;
        assert.deepEqual(
          after.imageInfo.map((i) => i.keyName),
          keys.slice(0, 5).reverse(),
        );
        const rows = await suite.h.database.db
          .select()
          .from(mediaObjects)
          .where(eq(mediaObjects.ownerId, ids.pro3!));
        assert.equal(rows.length, 6);
      });
    });
  });
}
