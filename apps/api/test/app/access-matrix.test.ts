import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { DEMO_ADMIN, DEMO_PASSWORD } from '../../src/db/seed.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import {
  call,
  DRIVERS,
  harness,
  memberTokens,
  type Harness,
} from '../helper.js';
import {
  ACTORS,
  expectedRows,
  NEW_PASSWORD,
  OUTCOMES,
  REQUESTS,
  type Actor,
  type Answer,
  type Ctx,
  type Fixture,
  type RequestSpec,
} from './access-matrix.table.js';
import type { RouteInfo } from '../support/routes.js';

const BUYER_IDENTITY = 'matrix-procure';
const BUYER_SECRET = 'matrix-shared-secret-42';
const BUYER_ORIGIN = 'https://procure.matrix.example';
/** The default API_CLIENTS of config.ts. */
const CLIENT = 'web:proam-web-dev';
/** Calls that set the scene come from their own address, so no actor's per-IP budget is spent. */
const SETUP_IP = '10.77.1.1';

/** The member behind each member actor. */
const MEMBER: Partial<Record<Actor, string>> = {
  amaA: 'ama1',
  amaB: 'ama2',
  pro: 'pro1',
  oPro: 'pro2',
  admin: 'admin',
};

/**
 * Registered routes that are not API calls: the CORS preflight (answered for
 * any path by @fastify/cors) and uploaded images served as static files
 * (public by design, under unguessable names). HEAD routes are Fastify's
 * automatic mirrors of GET routes, with the same hooks and handler.
 */
const NOT_API = new Set([
  'OPTIONS *',
  'GET /media/*',
  // Swagger UI's page and files: served to anyone where API_DOCS is on (envelope.test.ts).
  'GET /api/docs/',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/*',
]);

function cxml(secret = BUYER_SECRET): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<cXML payloadID="matrix@procure.matrix.example" timestamp="2026-01-01T10:00:00+09:00" xml:lang="ja-JP">
  <Header>
    <Sender><Credential domain="NetworkID"><Identity>${BUYER_IDENTITY}</Identity><SharedSecret>${secret}</SharedSecret></Credential></Sender>
  </Header>
  <Request>
    <PunchOutSetupRequest operation="create">
      <BuyerCookie>MATRIX-COOKIE</BuyerCookie>
      <Extrinsic name="UniqueName">matrix.buyer</Extrinsic>
      <BrowserFormPost><URL>${BUYER_ORIGIN}/return</URL></BrowserFormPost>
      <Contact role="endUser"><Name xml:lang="ja">行列 購買</Name></Contact>
    </PunchOutSetupRequest>
  </Request>
</cXML>`;
}

const basic = (credentials: string) =>
  `Basic ${Buffer.from(credentials).toString('base64')}`;
const jwtSubject = (token: string): string =>
  (
    JSON.parse(
      Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'),
    ) as { sub: string }
  ).sub;

/**
 * The state a refused call must leave alone: a digest of every row of every
 * table of the application schema, and of every stored media file. No table
 * is left out: a refused call writes nothing anywhere, not even rate-limit
 * counters (kept by @fastify/rate-limit outside the database), login failures (only
 * a wrong password reaches that table, never a refused client) or the audit
 * log (written after an admin's change succeeds).
 */
async function stateOf(h: Harness): Promise<Map<string, string>> {
  // Mails queued by earlier (allowed) calls are sent first: the worker's own
  // writes to mail_outbox are not the refused call's.
  await h.app.mailWorker.wake();
  const { rows: tables } = (await h.database.db.execute(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: { name: string }[] };
  assert.ok(tables.length >= 10, 'application tables found');
  const digests = tables
    .map(
      ({ name }) =>
        `select '${name}' as t, md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as h from "${name}" x`,
    )
    .join(' union all ');
  const { rows } = (await h.database.db.execute(
    sql.raw(digests),
  )) as unknown as { rows: { t: string; h: string }[] };
  const state = new Map(rows.map((r) => [r.t, r.h]));
  const media = path.join(h.dataDir, 'media');
  const files = createHash('sha256');
  if (existsSync(media))
    for (const f of readdirSync(media, { recursive: true }).map(String).sort())
      if (statSync(path.join(media, f)).isFile())
        files.update(f).update(readFileSync(path.join(media, f)));
  state.set('media files', files.digest('hex'));
  return state;
}

const changedParts = (a: Map<string, string>, b: Map<string, string>) =>
  [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));

for (const driver of DRIVERS) {
  describe(`access matrix (${driver})`, () => {
    let h: Harness;
    const routes: RouteInfo[] = [];
    /** Declared auth kind of every API route, by "METHOD url". */
    const kinds = new Map<string, string>();
    const access: Partial<Record<Actor, string>> = {};
    const self: Partial<Record<Actor, string>> = {};
    const refresh: Partial<Record<Actor, string>> = {};
    let fx: Fixture;

    const setupCall = async (
      apiPath: string,
      body: unknown,
      member?: string,
      tok?: Record<string, string>,
    ) => {
      const r = await call(h.app, apiPath, body, {
        remoteAddress: SETUP_IP,
        headers: member ? { authorization: `Bearer ${tok![member]}` } : {},
      });
      assert.equal(r.status, 200, `${apiPath}: ${JSON.stringify(r.json)}`);
      return r.json.body;
    };
    const registrationCode = async (email: string) => {
      await setupCall('/auth/code', { email });
      return /認証コード: (\d+)/.exec(
        await h.mailTo(email, /登録画面に入力/),
      )![1]!;
    };
    const ticket = async () => {
      const r = await h.app.inject({
        method: 'POST',
        url: '/api/punchout/setup',
        remoteAddress: SETUP_IP,
        headers: { 'content-type': 'text/xml' },
        payload: cxml(),
      });
      const t = /#\/checkin\/([A-Za-z0-9_-]+)<\/URL>/.exec(r.body)?.[1];
      assert.ok(t, r.body);
      return t;
    };
    const checkin = async () =>
      (await setupCall('/punchout/checkin', { ticket: await ticket() })) as {
        token: { accessToken: string; refreshToken: string };
      };
    /** A live refresh token of the actor: the one its last rotation gave, else a new login. */
    const refreshOf = async (actor: Actor): Promise<string> => {
      if (!refresh[actor]) {
        const member = MEMBER[actor];
        const r = member
          ? await call(
              h.app,
              '/auth/login',
              {
                mail: `${member}@example.jp`,
                password:
                  member === 'admin' ? DEMO_ADMIN.password : DEMO_PASSWORD,
              },
              {
                remoteAddress: SETUP_IP,
                headers: { authorization: basic(CLIENT) },
              },
            ).then((x) => {
              assert.equal(x.status, 200, `login ${member}`);
              return x.json.body as { token: { refreshToken: string } };
            })
          : await checkin();
        refresh[actor] = r.token.refreshToken;
      }
      return refresh[actor];
    };

    before(async () => {
      h = await harness(
        driver,
        {
          PUNCHOUT_BUYERS: `${BUYER_IDENTITY}:${BUYER_SECRET}@${BUYER_ORIGIN}`,
          // The API description is a route only where it is switched on.
          API_DOCS: 'true',
        },
        { onRoute: (r: RouteInfo) => void routes.push(r) },
      );
      const { tok, ids } = await memberTokens(h);
      for (const [actor, member] of Object.entries(MEMBER)) {
        access[actor as Actor] = tok[member]!;
        self[actor as Actor] = ids[member]!;
      }
      const buyer = await checkin();
      access.buyer = buyer.token.accessToken;
      self.buyer = jwtSubject(buyer.token.accessToken);
      refresh.buyer = buyer.token.refreshToken;

      const as = (member: string, apiPath: string, body: unknown) =>
        setupCall(apiPath, body, member, tok);
      const today = japanDate();
      const lessonOn = async (days: number, capacity = 4) => {
        const date = addDays(today, 60 + days);
        const s = (await as('pro1', '/schedule/create', {
          date,
          startTime: '09:00',
          endTime: '12:00',
          place: '行列カントリークラブ',
          capacity,
          fee: 20000,
        })) as { id: string };
        return { id: s.id, date };
      };
      const chat = await lessonOn(0);
      const open = await lessonOn(1);
      const cancel = await lessonOn(2);
      const round = await lessonOn(3);
      const deleteByPro = await lessonOn(4);
      const deleteByAdmin = await lessonOn(5);
      const callOffByPro = await lessonOn(6);
      const callOffByAdmin = await lessonOn(7);
      // Full with another amateur: amateurs A and B may wait for it.
      const full = await lessonOn(8, 1);
      await as('ama3', '/schedule/reserve', { id: full.id });
      // Lessons of today that amateur A took: reviewable from their day on.
      const tookToday = async (hour: number) => {
        const s = (await as('pro1', '/schedule/create', {
          date: today,
          startTime: `${hour}:00`,
          endTime: `${hour}:30`,
          place: '口コミカントリークラブ',
          capacity: 2,
          fee: 10000,
        })) as { id: string };
        await as('ama1', '/schedule/reserve', { id: s.id });
        return s.id;
      };
      const reviewOf = async (hour: number) =>
        (
          (await as('ama1', '/review/create', {
            scheduleId: await tookToday(hour),
            rating: 4,
          })) as { id: string }
        ).id;
      const report = (
        (await as('ama2', '/report/create', {
          targetType: 'review',
          targetId: 'matrix-review',
          reason: '不適切な表現があります',
        })) as { id: string }
      ).id;
      const review = {
        toWrite: await tookToday(20),
        written: await reviewOf(21),
        deleteByOwner: await reviewOf(22),
        deleteByAdmin: await reviewOf(23),
      };
      for (const id of [chat.id, cancel.id])
        await as('ama1', '/schedule/reserve', { id });
      const say = async (member: string) =>
        (
          (await as(member, '/roundLesson/message', {
            partitionKey: chat.id,
            msg: `${member} の連絡です`,
            sender: ids[member],
          })) as { sort_key: string }
        ).sort_key;
      const msg = { fromPro: await say('pro1'), fromAma: await say('ama1') };
      await as('ama1', '/user/likeCreate', {
        userId: ids.ama1,
        likeUserId: ids.pro1,
      });

      const png = (
        await sharp({
          create: { width: 8, height: 8, channels: 3, background: '#2a7a4b' },
        })
          .png()
          .toBuffer()
      ).toString('base64');
      const upload = async () =>
        (
          (await as('ama1', '/storage/upload', { data: png })) as {
            keyName: string;
          }
        ).keyName;

      await as('admin', '/competition/create', {
        name: '行列 更新用カップ',
        date: addDays(today, 100),
        venue: '行列CC',
        status: 'draft',
      });
      await as('admin', '/competition/create', {
        name: '行列 削除用カップ',
        date: addDays(today, 101),
        venue: '行列CC',
        status: 'open',
      });
      const competitionId = async (keyword: string) =>
        (
          (await as('admin', '/competition/read', { keyword })) as {
            id: string;
          }[]
        )[0]!.id;
      const newsId = async (title: string) =>
        (
          (await as('admin', '/news/create', { title, body: '本文' })) as {
            id: string;
          }
        ).id;

      await setupCall('/contact/create', {
        name: '行列 次郎',
        email: `matrix-contact@example.jp`,
        category: 'その他',
        message: '対応状況の更新用です。',
      });
      const contacts = (await as('admin', '/contact/list', {})) as {
        id: string;
        email: string;
      }[];

      const member = async (email: string, password: string) => {
        await setupCall('/user/create', {
          email,
          code: await registrationCode(email),
          password,
          userName: '行列 捨て',
          type: 'amature',
        });
        return email;
      };
      const resetEmail = await member('matrix-reset@example.jp', NEW_PASSWORD);
      await setupCall('/auth/code/reset', { email: resetEmail });
      const resetCode = /認証コード: (\d+)/.exec(
        await h.mailTo(resetEmail, /再設定画面に入力/),
      )![1]!;

      fx = {
        ids: {
          ama1: ids.ama1!,
          ama2: ids.ama2!,
          ama5: ids.ama5!,
          pro1: ids.pro1!,
          pro2: ids.pro2!,
          admin: ids.admin!,
        },
        lesson: {
          chat,
          open: open.id,
          cancel: cancel.id,
          roundDate: round.date,
          deleteByPro: deleteByPro.id,
          deleteByAdmin: deleteByAdmin.id,
          callOffByPro: callOffByPro.id,
          callOffByAdmin: callOffByAdmin.id,
          full: full.id,
          freeDate: addDays(today, 70),
        },
        msg,
        review,
        report,
        media: {
          profile: await upload(),
          replace: await upload(),
          deleteByOwner: await upload(),
          deleteByAdmin: await upload(),
        },
        competition: {
          update: await competitionId('行列 更新用'),
          remove: await competitionId('行列 削除用'),
        },
        news: {
          published: await newsId('行列 公開中'),
          update: await newsId('行列 更新用'),
          remove: await newsId('行列 削除用'),
        },
        contactId: contacts.find(
          (c) => c.email === 'matrix-contact@example.jp',
        )!.id,
        accounts: {
          reset: { email: resetEmail, code: resetCode },
          remove: {
            email: await member('matrix-remove@example.jp', NEW_PASSWORD),
            password: NEW_PASSWORD,
          },
        },
        png,
      };
    });
    after(() => h.close());

    /** Every route the app registered, but for NOT_API and HEAD mirrors, as "METHOD url". */
    const apiRoutes = () => {
      for (const r of routes)
        for (const m of [r.method].flat())
          if (m !== 'HEAD' && !NOT_API.has(`${m} ${r.url}`))
            kinds.set(`${m} ${r.url}`, r.config?.auth ?? '(none declared)');
      return kinds;
    };

    it('has a line for every route of the app, and none for a route it lacks', () => {
      const declared = apiRoutes();
      const table = expectedRows().map((r) => r.route);
      assert.equal(new Set(table).size, table.length, 'a route listed twice');
      // routes.test.ts checks that the app serves every call of docs/api.md, so that
      // the app's routes cover the spec's and this table covers the app's.
      assert.deepEqual(
        [...declared.keys()].filter((r) => !table.includes(r)),
        [],
        'routes without a line in access-matrix.table.ts',
      );
      assert.deepEqual(
        table.filter((r) => !declared.has(r)),
        [],
        'lines for routes the app does not have',
      );
      assert.deepEqual(
        Object.keys(REQUESTS).filter((r) => !declared.has(r)),
        [],
        'request recipes for routes the app does not have',
      );
      for (const row of expectedRows()) {
        const hasClientColumns = row.cells.length === 9;
        assert.equal(
          hasClientColumns,
          declared.get(row.route) === 'client' ||
            row.route === 'POST /api/punchout/setup',
          `${row.route}: client columns go with client credentials`,
        );
      }
    });

    it('answers every cell as the table says, and a refused call changes nothing', async (t) => {
      const declared = apiRoutes();
      const failures: string[] = [];
      let cells = 0;
      let denials = 0;
      const started = performance.now();
      const rows = expectedRows();
      for (const row of rows) {
        const kind = declared.get(row.route);
        if (!kind) continue; // reported by the inventory test
        const spec: RequestSpec = REQUESTS[row.route] ?? {};
        // Refusals first, so the allowed calls of a row cannot change what they meet.
        const ordered = [
          ...row.cells.filter((c) => c.outcome !== 'OK'),
          ...row.cells.filter((c) => c.outcome === 'OK'),
        ];
        let state: Map<string, string> | undefined;
        for (const { actor, outcome } of ordered) {
          const refused = outcome !== 'OK';
          if (refused) state ??= await stateOf(h);
          const ctx: Ctx = {
            h,
            actor,
            fx,
            headers: await headersFor(actor, kind),
            // Each actor calls from an address of its own, as separate people would.
            remoteAddress: `10.77.0.${ACTORS.indexOf(actor) + 1}`,
            self: self[actor] ?? fx.ids.ama1,
            email: (purpose) =>
              `matrix-${purpose}-${actor.toLowerCase()}@example.jp`,
            registrationCode,
            ticket,
            cxml,
          };
          const label = `${row.route} × ${actor}`;
          let answer: Answer;
          try {
            answer = await send(row.route, spec, ctx);
          } catch (err) {
            failures.push(`${label}: request failed: ${String(err)}`);
            state = undefined; // what it did is unknown: the next refusal starts afresh
            continue;
          }
          cells++;
          const problem = judge(outcome, answer, spec, ctx);
          if (problem) failures.push(`${label}: ${problem}`);
          if (refused) {
            denials++;
            const now = await stateOf(h);
            const changed = changedParts(state!, now);
            if (changed.length)
              failures.push(
                `${label}: refused, yet changed ${changed.join(', ')}`,
              );
            state = now;
          } else {
            state = undefined;
            if (kind === 'refresh') {
              // Rotation: the answer carries the actor's next token (none after a logout).
              const next = (answer.body as { token?: { refreshToken: string } })
                ?.token?.refreshToken;
              if (next) refresh[actor] = next;
              else delete refresh[actor];
            }
          }
        }
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const summary = `access matrix (${driver}): ${rows.length} routes × actors = ${cells} cells checked, ${denials} denials verified unchanged, in ${seconds} s`;
      t.diagnostic(summary);
      assert.deepEqual(failures, [], failures.join('\n'));
      assert.ok(cells >= rows.length * 7 && denials > 0);
    });

    async function headersFor(
      actor: Actor,
      kind: string,
    ): Promise<Record<string, string>> {
      if (actor === 'anon') return {};
      if (actor === 'client') return { authorization: basic(CLIENT) };
      if (actor === 'badCli')
        return { authorization: basic('web:not-the-client-code') };
      if (kind === 'refresh')
        return { authorization: `Bearer ${await refreshOf(actor)}` };
      return { authorization: `Bearer ${access[actor]}` };
    }
  });
}

/** Sends a cell's request: the route's own way, or JSON as the route's method. */
async function send(route: string, spec: RequestSpec, c: Ctx): Promise<Answer> {
  if (spec.send) return spec.send(c);
  const [method, url] = route.split(' ') as ['GET' | 'POST', string];
  const body = method === 'POST' ? ((await spec.body?.(c)) ?? {}) : undefined;
  const res = await c.h.app.inject({
    method,
    url,
    remoteAddress: c.remoteAddress,
    headers: {
      ...c.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const json = res.json<{ status?: string; code?: string; body?: unknown }>();
  return {
    status: res.statusCode,
    code: json.code,
    body: json.status === 'OK' ? json.body : json,
  };
}

/** What is wrong with an answer, or undefined. */
function judge(
  outcome: keyof typeof OUTCOMES,
  a: Answer,
  spec: RequestSpec,
  c: Ctx,
): string | undefined {
  const want: { status: number; code?: string; cxml?: boolean } =
    OUTCOMES[outcome];
  const got = `HTTP ${a.status}${a.code ? ` ${a.code}` : ''}`;
  if (a.status !== want.status || (want.code && a.code !== want.code))
    return `expected ${outcome} (HTTP ${want.status}${want.code ? ` ${want.code}` : ''}), got ${got}`;
  if (want.cxml && !/<Status code="401"/.test(String(a.body)))
    return `expected a cXML 401 Status, got ${String(a.body).slice(0, 200)}`;
  if (outcome === 'OK') return spec.check?.(c, a.body);
  return undefined;
}
