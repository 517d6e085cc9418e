import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { hashToken } from '../../src/lib/secrets.js';
import { after, before, describe, it } from 'node:test';
import { and, eq, inArray, sql, getTableName } from 'drizzle-orm';
import {
  authCodes,
  likes,
  logins,
  messages,
  refreshTokens,
  reservations,
  reviews,
  schedules,
  users,
  waitlist,
} from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { lessonStart } from '../../src/repositories/schedule-repository.js';
import {
  call,
  DRIVERS,
  harness,
  memberSuite,
  signIn,
  TEST_JWT_SECRET,
  TestClock,
  type Harness,
  WEB_CLIENT,
} from '../helper.js';
import { rowsWhere, scheduleRow } from '../fixtures.js';

const client = { authorization: WEB_CLIENT };
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
type Tok = { accessToken: string; refreshToken: string };
type LoginBody = {
  token: Tok;
  user: { id: string; userName: string; type: string };
};

const decodeJwt = (t: string) => {
  const [h, p] = t.split('.');
  return {
    header: JSON.parse(Buffer.from(h!, 'base64url').toString()) as Record<
      string,
      unknown
    >,
    payload: JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<
      string,
      number | string
    >,
  };
};
const withoutReqId = (j: Record<string, unknown>) => ({
  ...j,
  reqId: undefined,
});

for (const driver of DRIVERS) {
  describe(`auth (${driver})`, () => {
    let h: Harness;
    const clock = new TestClock();
    let ip = 0;
    /** Each test speaks from its own address unless it is about per-IP limits. */
    const nextIp = () =>
      `127.0.${Math.floor(++ip / 250) + 10}.${(ip % 250) + 1}`;
    const post = (
      path: string,
      body: unknown,
      headers: Record<string, string> = {},
      remoteAddress = nextIp(),
    ) => call(h.app, path, body, { headers, remoteAddress });
    /** A sign-in as the web app, which may be refused. */
    const attempt = (mail: string, password: string) =>
      post('/auth/login', { mail, password }, client);
    const login = async (mail: string, password: string) => {
      const r = await attempt(mail, password);
      assert.equal(r.status, 200, JSON.stringify(r.json));
      return r.json.body as LoginBody;
    };
    const refresh = (t: string) => post('/auth/refresh', undefined, bearer(t));

    before(async () => {
      h = await harness(driver, {}, { clock });
    });
    after(() => h.close());

    describe('client credentials', () => {
      it('are required on login, update and delete (401 InvalidClient)', async () => {
        const bad = [
          undefined,
          `Basic ${Buffer.from('web:wrong-code').toString('base64')}`,
          'Basic !!!',
          'Bearer x',
        ];
        for (const path of ['/auth/login', '/auth/update', '/auth/delete']) {
          for (const authorization of bad) {
            const r = await post(
              path,
              { mail: 'ama1@example.jp', password: 'proam-demo-2026' },
              authorization ? { authorization } : {},
            );
            assert.equal(r.status, 401, `${path} ${authorization}`);
            assert.equal(r.json.code, 'InvalidClient');
            assert.equal(r.json.msg, 'アプリの認証に失敗しました。');
          }
        }
      });
    });

    describe('login', () => {
      it('issues a pinned HS256 access token (sub, typ, exp 900 s) and a 256-bit refresh token', async () => {
        const body = await login('ama1@example.jp', 'proam-demo-2026');
        assert.equal(body.user.type, 'amature');
        assert.equal(body.user.userName, '山本 拓也');
        const { header, payload } = decodeJwt(body.token.accessToken);
        assert.equal(header.alg, 'HS256');
        assert.equal(payload.sub, body.user.id);
        assert.equal(payload.typ, 'amature');
        assert.equal(Number(payload.exp) - Number(payload.iat), 900);
        assert.match(body.token.refreshToken, /^[A-Za-z0-9_-]{43}$/);
        const stored = await h.database.db.select().from(refreshTokens);
        assert.ok(
          stored.every((r) => r.tokenHash !== body.token.refreshToken),
          'only hashes are stored',
        );
        const again = await login('AMA1@example.jp', 'proam-demo-2026');
        assert.notEqual(again.token.refreshToken, body.token.refreshToken);
      });

      it('accepts mail and password from the query string too', async () => {
        const r = await call(h.app, '/auth/login', undefined, {
          query: 'mail=pro1%40example.jp&password=proam-demo-2026',
          headers: client,
          remoteAddress: nextIp(),
        });
        assert.equal(r.status, 200);
        assert.equal((r.json.body as LoginBody).user.type, 'pro');
      });

      it('answers an unknown address and a wrong password identically', async () => {
        const a = await attempt('nobody@example.jp', 'whatever-123');
        const b = await attempt('ama2@example.jp', 'whatever-123');
        assert.equal(a.status, 401);
        assert.deepEqual(withoutReqId(a.json), withoutReqId(b.json));
        assert.equal(a.json.code, 'InvalidCredentials');
        assert.equal(
          a.json.msg,
          'メールアドレスまたはパスワードが正しくありません。',
        );
      });

      it('takes similar time for an unknown address and a wrong password', async () => {
        const time = async (mail: string) => {
          const t0 = performance.now();
          await attempt(mail, 'wrong-password-1');
          return performance.now() - t0;
        };
        const unknown: number[] = [];
        const known: number[] = [];
        for (let i = 0; i < 4; i++) {
          unknown.push(await time(`ghost${i}@example.jp`));
          known.push(await time(`pro${(i % 4) + 2}@example.jp`));
        }
        // Both pay one argon2 verify (~25 ms); without the dummy verify unknown would be ~1 ms.
        // The fastest of each: other jobs on the machine only ever add time
        // (a CI run once measured medians of 34 ms against 117 ms).
        const fastest = (xs: number[]) => Math.min(...xs);
        assert.ok(
          fastest(unknown) > fastest(known) * 0.5,
          `unknown ${unknown.join(', ')} ms vs known ${known.join(', ')} ms`,
        );
      });

      it('delays an address after 5 failures (1 s, then doubling), even with the right password', async () => {
        for (let i = 0; i < 5; i++) {
          const r = await post(
            '/auth/login',
            { mail: 'ama3@example.jp', password: `wrong-${i}-password` },
            client,
          );
          assert.equal(r.json.code, 'InvalidCredentials');
        }
        const r = await attempt('ama3@example.jp', 'proam-demo-2026');
        assert.equal(r.status, 429);
        assert.equal(r.json.code, 'TooManyRequests');
        // AU-07 backoff: 1 s after the 5th failure (auth-throttle.test.ts has the whole schedule).
        assert.equal(r.res.headers['retry-after'], '1');
        // Same answer for an unknown address that failed 5 times.
        for (let i = 0; i < 5; i++)
          await post(
            '/auth/login',
            { mail: 'ghost-x@example.jp', password: `wrong-${i}-password` },
            client,
          );
        assert.equal(
          (await attempt('ghost-x@example.jp', 'x-password')).status,
          429,
        );
        clock.advance(1000);
        await login('ama3@example.jp', 'proam-demo-2026');
      });

      it('limits failed sign-ins per IP to 30 per 5 minutes', async () => {
        const from = '127.0.200.1';
        for (let i = 0; i < 30; i++) {
          const r = await post(
            '/auth/login',
            { mail: `spray${i}@example.jp`, password: 'password-spray' },
            client,
            from,
          );
          assert.equal(r.json.code, 'InvalidCredentials', `attempt ${i}`);
        }
        const r = await post(
          '/auth/login',
          { mail: 'pro2@example.jp', password: 'proam-demo-2026' },
          client,
          from,
        );
        assert.equal(r.status, 429);
        assert.ok(Number(r.res.headers['retry-after']) > 0);
        assert.equal(
          (await attempt('pro2@example.jp', 'proam-demo-2026')).status,
          200,
        );
        clock.advance(5 * 60_000 + 1000);
      });
    });

    describe('registration', () => {
      const codeFrom = (mail: string) => /認証コード: (\d+)/.exec(mail)![1]!;

      it('mails a 6-digit code and registers a member who is then logged in', async () => {
        const email = `new-${driver}@example.jp`;
        const sent = await post('/auth/code', { email });
        assert.deepEqual(sent.json.body, { sent: true });
        const code = codeFrom(
          await h.mailTo(email, /登録画面に入力してください/),
        );
        assert.match(code, /^\d{6}$/);
        const stored = await h.database.db
          .select()
          .from(authCodes)
          .where(eq(authCodes.email, email));
        assert.ok(
          stored.every((r) => !r.codeHash.includes(code)),
          'the code is not stored in clear',
        );
        const bad = await post('/user/create', {
          email,
          code: code === '000000' ? '000001' : '000000',
          password: 'Fairway-Birdie-77',
          userName: '新規 会員',
          type: 'amature',
        });
        assert.equal(bad.json.code, 'InvalidCode');
        assert.equal(
          bad.json.msg,
          '認証コードが正しくないか、有効期限が切れています。',
        );
        const r = await post('/user/create', {
          email,
          code,
          password: 'Fairway-Birdie-77',
          userName: ' 新規 会員 ',
          type: 'pro',
          nameKana: 'しんき かいいん',
          area: '東京都',
          pro: { lessonFee: 8000, specialty: 'パター' },
        });
        assert.equal(r.status, 200, JSON.stringify(r.json));
        const body = r.json.body as LoginBody;
        assert.equal(body.user.userName, '新規 会員');
        assert.equal(body.user.type, 'pro');
        const [row] = await h.database.db
          .select()
          .from(users)
          .where(eq(users.id, body.user.id));
        assert.equal(row!.lessonFee, 8000);
        assert.match(row!.passwordHash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
        await login(email, 'Fairway-Birdie-77');
        // The code was used once; the code is checked before the address (RC-05).
        const again = await post('/user/create', {
          email,
          code,
          password: 'Fairway-Birdie-77',
          userName: 'x',
          type: 'pro',
        });
        assert.equal(again.json.code, 'InvalidCode');
      });

      it('answers the same for a registered address, which gets a notice instead of a code', async () => {
        const a = await post('/auth/code', { email: 'pro3@example.jp' });
        const b = await post('/auth/code', { email: 'unknown-77@example.jp' });
        assert.deepEqual(withoutReqId(a.json), withoutReqId(b.json));
        const notice = await h.mailTo(
          'pro3@example.jp',
          /既に ProAm Connect に登録されています/,
        );
        assert.doesNotMatch(notice, /認証コード: \d/);
      });

      it('refuses a code after 10 minutes, after 5 wrong tries, or for another purpose', async () => {
        const email = `expiry-${driver}@example.jp`;
        const reg = {
          password: 'Fairway-Birdie-77',
          userName: '期限 テスト',
          type: 'amature',
        };
        await post('/auth/code', { email });
        let code = codeFrom(await h.mailTo(email));
        clock.advance(10 * 60_000 + 1000);
        assert.equal(
          (await post('/user/create', { email, code, ...reg })).json.code,
          'InvalidCode',
        );

        await post('/auth/code', { email });
        code = codeFrom(await h.mailTo(email, new RegExp(`(?!${code})\\d{6}`)));
        // The expired code was the first wrong try of the address's 5 in 10 minutes.
        for (let i = 0; i < 4; i++) {
          const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(
            6,
            '0',
          );
          assert.equal(
            (await post('/user/create', { email, code: wrong, ...reg })).json
              .code,
            'InvalidCode',
          );
        }
        assert.equal(
          (await post('/user/create', { email, code, ...reg })).json.code,
          'TooManyRequests',
          'no 6th try within 10 minutes',
        );

        // A reset code cannot register, and a registration code cannot reset.
        await post('/auth/code/reset', { email: 'ama4@example.jp' });
        const resetCode = codeFrom(
          await h.mailTo('ama4@example.jp', /パスワード再設定/),
        );
        assert.match(resetCode, /^\d{8}$/);
        assert.equal(
          (
            await post('/user/create', {
              email: 'ama4@example.jp',
              code: resetCode,
              ...reg,
            })
          ).json.code,
          'InvalidCode',
        );
        await post('/auth/code', { email: 'fresh-purpose@example.jp' });
        const regCode = codeFrom(await h.mailTo('fresh-purpose@example.jp'));
        const upd = await post(
          '/auth/update',
          {
            email: 'fresh-purpose@example.jp',
            password: 'Fairway-Birdie-77',
            code: regCode,
          },
          client,
        );
        assert.equal(upd.json.code, 'InvalidCode');
      });

      it('limits code mails to 5 an hour per address, the same for unknown addresses', async () => {
        for (const email of ['ama5@example.jp', 'nobody-rate@example.jp']) {
          for (let i = 0; i < 5; i++)
            assert.equal(
              (await post('/auth/code/reset', { email })).status,
              200,
            );
          const r = await post('/auth/code/reset', { email });
          assert.equal(r.status, 429);
          assert.equal(r.json.code, 'TooManyRequests');
        }
      });

      it('refuses short, long and common passwords, and accepts Japanese full-width ones', async () => {
        const email = `pw-${driver}@example.jp`;
        const base = {
          email,
          code: '123456',
          userName: 'パスワード テスト',
          type: 'amature',
        };
        for (const password of [
          '1234567',
          'x'.repeat(129),
          'password123',
          'iloveyou1',
          'proamconnect2026',
          'aaaaaaaaaaaa',
          email,
        ]) {
          const r = await post('/user/create', { ...base, password });
          assert.equal(r.status, 400, password.slice(0, 20));
          assert.equal(r.json.msg, '入力内容に誤りがあります。（password）');
        }
        await post('/auth/code', { email });
        const code = codeFrom(await h.mailTo(email));
        const r = await post('/user/create', {
          ...base,
          code,
          password: 'ゴルフ大好き！ｐａｓｓ',
        });
        assert.equal(r.status, 200, JSON.stringify(r.json));
      });

      it('verifies a password exactly as typed (no truncation, no case folding)', async () => {
        const email = `exact-${driver}@example.jp`;
        const long = 'Ab1-'.repeat(20);
        await post('/auth/code', { email });
        const code = codeFrom(await h.mailTo(email));
        assert.equal(
          (
            await post('/user/create', {
              email,
              code,
              password: long,
              userName: '厳密 テスト',
              type: 'amature',
            })
          ).status,
          200,
        );
        for (const wrong of [
          long.slice(0, 72),
          long.toUpperCase(),
          ` ${long}`,
        ]) {
          const r = await attempt(email, wrong);
          assert.equal(r.json.code, 'InvalidCredentials');
        }
        await login(email, long);
      });
    });

    describe('tokens', () => {
      it('rotates on every refresh; reusing a rotated token after 10 s revokes the whole login (TK-07)', async () => {
        const r0 = (await login('pro4@example.jp', 'proam-demo-2026')).token
          .refreshToken;
        const chain = [r0];
        for (let i = 0; i < 3; i++) {
          clock.advance(11_000);
          const r = await refresh(chain.at(-1)!);
          assert.equal(r.status, 200);
          chain.push((r.json.body as LoginBody).token.refreshToken);
        }
        assert.equal(new Set(chain).size, 4);
        clock.advance(11_000);
        const reuse = await refresh(r0);
        assert.equal(reuse.status, 401);
        assert.equal(reuse.json.code, 'InvalidRefreshToken');
        for (const t of chain)
          assert.equal((await refresh(t)).json.code, 'InvalidRefreshToken');
        // The whole login (the family of all four tokens) is revoked in the database.
        const [token] = await h.database.db
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashToken(r0)));
        const [loginRow] = await h.database.db
          .select()
          .from(logins)
          .where(eq(logins.id, token!.loginId));
        assert.ok(loginRow!.revokedAt, 'login revoked');
        const family = await h.database.db
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.loginId, token!.loginId));
        assert.equal(family.length, 4);
      });

      it('gives parallel refreshes within 10 s the same successor, without revoking (TK-08)', async () => {
        const r0 = (await login('pro5@example.jp', 'proam-demo-2026')).token
          .refreshToken;
        const results = await Promise.all(
          Array.from({ length: 10 }, () => refresh(r0)),
        );
        assert.ok(
          results.every((r) => r.status === 200),
          JSON.stringify(results.map((r) => r.json.code)),
        );
        const successors = new Set(
          results.map((r) => (r.json.body as LoginBody).token.refreshToken),
        );
        assert.equal(successors.size, 1);
        const [r1] = [...successors];
        clock.advance(5_000);
        assert.equal((await refresh(r0)).status, 200, 'still within grace');
        const next = await refresh(r1!);
        assert.equal(next.status, 200);
      });

      it('handshake rotates too and tells the server time', async () => {
        const r0 = (await login('ama6@example.jp', 'proam-demo-2026')).token
          .refreshToken;
        const r = await post('/auth/handshake', undefined, bearer(r0));
        assert.equal(r.status, 200);
        const body = r.json.body as LoginBody & { serverTime: string };
        assert.ok(
          Math.abs(Date.parse(body.serverTime) - clock.now().getTime()) < 5000,
        );
        assert.notEqual(body.token.refreshToken, r0);
        assert.equal(body.user.type, 'amature');
      });

      it('ends a login after 14 idle days and after 30 days in all (TK-09)', async () => {
        let t = (await login('pro2@example.jp', 'proam-demo-2026')).token
          .refreshToken;
        clock.advance(14 * 86_400_000 + 60_000);
        assert.equal((await refresh(t)).json.code, 'InvalidRefreshToken');

        t = (await login('pro2@example.jp', 'proam-demo-2026')).token
          .refreshToken;
        for (let day = 0; day < 29; day++) {
          clock.advance(86_400_000);
          const r = await refresh(t);
          assert.equal(r.status, 200, `day ${day + 1}`);
          t = (r.json.body as LoginBody).token.refreshToken;
        }
        clock.advance(86_400_000 + 60_000);
        assert.equal((await refresh(t)).json.code, 'InvalidRefreshToken');
      });

      it('never takes a refresh token as an access token, or the reverse (TK-04)', async () => {
        const { token } = await login('admin@example.jp', 'proam-admin-2026');
        const asAccess = await post(
          '/competition/read',
          {},
          bearer(token.refreshToken),
        );
        assert.equal(asAccess.json.code, 'InvalidAccessToken');
        const asRefresh = await refresh(token.accessToken);
        assert.equal(asRefresh.json.code, 'InvalidRefreshToken');
        assert.equal(
          (await post('/auth/refresh', undefined, {})).json.code,
          'InvalidRefreshToken',
        );
        const admin = await post(
          '/competition/read',
          { status: 'draft' },
          bearer(token.accessToken),
        );
        assert.ok((admin.json.body as unknown[]).length >= 1);
      });

      it('refuses forged, tampered, unsigned and expired access tokens (TK-01, TK-03)', async () => {
        const { token } = await login('ama2@example.jp', 'proam-demo-2026');
        const [head, payload, sig] = token.accessToken.split('.');
        const b64 = (o: object) =>
          Buffer.from(JSON.stringify(o)).toString('base64url');
        const p = JSON.parse(
          Buffer.from(payload!, 'base64url').toString(),
        ) as Record<string, unknown>;
        const sign = (h: object, body: object, key: string) => {
          const data = `${b64(h)}.${b64(body)}`;
          return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
        };
        const forged = [
          `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...p, typ: 'admin' })}.`,
          `${b64({ alg: 'nOnE' })}.${payload}.`,
          `${head}.${b64({ ...p, typ: 'admin' })}.${sig}`,
          `${head}.${payload}`,
          sign(
            { alg: 'HS256', typ: 'JWT' },
            { ...p, typ: 'admin' },
            'another-secret-another-secret-another',
          ),
          sign(
            { alg: 'HS256', typ: 'JWT' },
            { ...p, exp: Math.floor(Date.now() / 1000) - 10 },
            TEST_JWT_SECRET,
          ),
          sign(
            { alg: 'HS256', typ: 'JWT' },
            { sub: p.sub, typ: p.typ, kind: 'access' },
            TEST_JWT_SECRET,
          ),
          sign({ alg: 'HS384', typ: 'JWT' }, p, TEST_JWT_SECRET),
        ];
        for (const t of forged) {
          const r = await post(
            '/competition/read',
            { status: 'draft' },
            bearer(t),
          );
          assert.equal(r.status, 401, t.slice(0, 40));
          assert.equal(r.json.code, 'InvalidAccessToken');
        }
      });

      it('verifies an access token once and forgets it at its expiry (the verified-token cache)', async () => {
        const { token } = await login('ama2@example.jp', 'proam-demo-2026');
        const p = JSON.parse(
          Buffer.from(token.accessToken.split('.')[1]!, 'base64url').toString(),
        ) as Record<string, unknown>;
        const exp = Math.floor(Date.now() / 1000) + 3;
        const data = `${Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
          JSON.stringify({ ...p, exp }),
        ).toString('base64url')}`;
        const shortLived = `${data}.${createHmac('sha256', TEST_JWT_SECRET).update(data).digest('base64url')}`;
        const read = () =>
          post('/user/read', { id: String(p.sub) }, bearer(shortLived));
        const jwt = h.app.jwt;
        const verify = jwt.verify;
        let verified = 0;
        jwt.verify = ((...args: Parameters<typeof verify>) => {
          verified++;
          return verify.apply(jwt, args);
        }) as typeof verify;
        try {
          assert.equal((await read()).status, 200);
          assert.equal((await read()).status, 200);
          assert.equal(verified, 1, 'the second call is served from the cache');
          await new Promise((r) =>
            setTimeout(r, exp * 1000 - Date.now() + 100),
          );
          const late = await read();
          assert.equal(late.status, 401);
          assert.equal(late.json.code, 'InvalidAccessToken');
        } finally {
          jwt.verify = verify;
        }
      });

      it('logout ends this login only', async () => {
        const a = (await login('pro3@example.jp', 'proam-demo-2026')).token
          .refreshToken;
        const b = (await login('pro3@example.jp', 'proam-demo-2026')).token
          .refreshToken;
        const r = await post('/auth/logout', undefined, bearer(a));
        assert.deepEqual(r.json.body, { loggedOut: true });
        assert.equal((await refresh(a)).json.code, 'InvalidRefreshToken');
        assert.equal(
          (await post('/auth/logout', undefined, bearer(a))).json.code,
          'InvalidRefreshToken',
        );
        assert.equal((await refresh(b)).status, 200);
      });
    });

    describe('password reset and account deletion', () => {
      it('resets with an 8-digit code, ends every login, and mails a notice (RC-07)', async () => {
        const email = 'ama2@example.jp';
        const { token: beforeToken, user } = await login(
          email,
          'proam-demo-2026',
        );
        const before = beforeToken.refreshToken;
        const readSelf = (access: string) =>
          post('/user/read', { id: user.id }, bearer(access));
        assert.equal((await readSelf(beforeToken.accessToken)).status, 200);
        await post('/auth/code/reset', { email });
        const code = /認証コード: (\d{8})/.exec(
          await h.mailTo(email, /パスワード再設定/),
        )![1]!;
        // Until the code is used, nothing changes.
        await login(email, 'proam-demo-2026');
        const r = await post(
          '/auth/update',
          { email, password: 'New-Green-Jacket-9', code },
          client,
        );
        assert.deepEqual(r.json.body, { updated: true });
        assert.equal((await refresh(before)).json.code, 'InvalidRefreshToken');
        assert.equal(
          (await attempt(email, 'proam-demo-2026')).json.code,
          'InvalidCredentials',
        );
        // Access tokens issued before the reset end with it (TK-11), new ones work.
        const stale = await readSelf(beforeToken.accessToken);
        assert.equal(stale.status, 401);
        assert.equal(stale.json.code, 'InvalidAccessToken');
        const after = await login(email, 'New-Green-Jacket-9');
        assert.equal((await readSelf(after.token.accessToken)).status, 200);
        await h.mailTo(email, /パスワードが変更されました/);
        const reuse = await post(
          '/auth/update',
          { email, password: 'Another-Green-Jacket-9', code },
          client,
        );
        assert.equal(reuse.json.code, 'InvalidCode');
      });

      it('deletes an account with its likes, reservations and logins; messages stay without a sender', async () => {
        const email = 'ama1@example.jp';
        const { user, token } = await login(email, 'proam-demo-2026');
        const likeCount = async (id: string) =>
          (await rowsWhere(h, users, users.id, id))[0]!.likeCount;
        const liked = await rowsWhere(h, likes, likes.userId, user.id);
        const countsBefore = await Promise.all(
          liked.map((l) => likeCount(l.likeUserId)),
        );
        const booked = await rowsWhere(
          h,
          reservations,
          reservations.userId,
          user.id,
        );
        const lessonsBefore = await Promise.all(
          booked.map((b) => scheduleRow(h, b.scheduleId)),
        );
        const sent = await rowsWhere(h, messages, messages.sender, user.id);
        assert.ok(
          liked.length > 0 && booked.length > 0 && sent.length > 0,
          'the demo member has data to delete',
        );

        const wrong = await post(
          '/auth/delete',
          { email, password: 'not-my-password' },
          client,
        );
        assert.equal(wrong.json.code, 'InvalidCredentials');
        const r = await post(
          '/auth/delete',
          { email, password: 'proam-demo-2026' },
          client,
        );
        assert.deepEqual(r.json.body, { deleted: true });

        // The member, their likes and their reservations are gone.
        for (const [table, userId] of [
          [users, users.id],
          [likes, likes.userId],
          [reservations, reservations.userId],
        ] as const) {
          const left = await rowsWhere(h, table, userId, user.id);
          assert.equal(left.length, 0, getTableName(table));
        }
        for (const [i, l] of liked.entries())
          assert.equal(await likeCount(l.likeUserId), countsBefore[i]! - 1);
        for (const lesson of lessonsBefore) {
          const now = await scheduleRow(h, lesson.id);
          assert.equal(now.reservedCount, lesson.reservedCount - 1);
          if (lesson.statusRound === 'full')
            assert.equal(now.statusRound, 'open');
        }
        for (const m of sent) {
          const [kept] = await rowsWhere(
            h,
            messages,
            messages.sortKey,
            m.sortKey,
          );
          assert.equal(kept!.sender, null);
          assert.equal(kept!.msg, m.msg);
        }
        assert.equal(
          (await refresh(token.refreshToken)).json.code,
          'InvalidRefreshToken',
        );
        // The access token of the deleted member ends at once too (TK-11).
        const ghost = await post(
          '/user/read',
          { id: user.id },
          bearer(token.accessToken),
        );
        assert.equal(ghost.status, 401);
        assert.equal(ghost.json.code, 'InvalidAccessToken');
        assert.equal(
          (await attempt(email, 'proam-demo-2026')).json.code,
          'InvalidCredentials',
        );
      });

      it('refuses an access token once its member is no longer of the type it names (AC-08)', async () => {
        const { token, user } = await login(
          'pro2@example.jp',
          'proam-demo-2026',
        );
        const read = () =>
          post('/user/read', { id: user.id }, bearer(token.accessToken));
        assert.equal((await read()).status, 200);
        // Changed outside the app: the users_changed trigger drops the cached row.
        await h.database.db.execute(
          sql`update users set type = 'amature' where id = ${user.id}`,
        );
        try {
          let r = await read();
          for (let i = 0; i < 50 && r.status === 200; i++) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            r = await read();
          }
          assert.equal(r.status, 401);
          assert.equal(r.json.code, 'InvalidAccessToken');
        } finally {
          await h.database.db.execute(
            sql`update users set type = 'pro' where id = ${user.id}`,
          );
        }
      });
    });

    describe('log hygiene', () => {
      it('never logs passwords, codes or tokens, valid or not, in bodies or query strings (LG-03)', async () => {
        const sentinel = `S3ntinel-${driver}-${Date.now()}`;
        const email = `sentinel-${driver}@example.jp`;
        await post('/auth/code', { email });
        const code = /認証コード: (\d{6})/.exec(await h.mailTo(email))![1]!;
        const created = await post('/user/create', {
          email,
          code,
          password: `${sentinel}-pw`,
          userName: '秘密 テスト',
          type: 'amature',
        });
        const { token } = created.json.body as LoginBody;
        await post(
          '/auth/login',
          { mail: email, password: `${sentinel}-pw` },
          client,
        );
        await post(
          '/auth/login',
          { mail: email, password: `${sentinel}-wrong` },
          client,
        );
        await call(h.app, '/auth/login', undefined, {
          query: `mail=${email}&password=${sentinel}-q`,
          headers: client,
          remoteAddress: nextIp(),
        });
        await call(h.app, '/auth/login', undefined, {
          query: `mail=bad&password=${sentinel}-q2`,
          headers: client,
          remoteAddress: nextIp(),
        });
        await call(h.app, '/user/create', undefined, {
          query: `code=${code}&password=${sentinel}-c`,
          remoteAddress: nextIp(),
        });
        await refresh(token.refreshToken);
        await refresh(`${sentinel}-refresh-token-garbage`);
        await post('/competition/read', {}, bearer(`${sentinel}.x.y`));
        await post('/competition/read', {}, bearer(token.accessToken));
        const logs = h.logs.join('');
        for (const secret of [
          sentinel,
          code,
          token.accessToken,
          token.refreshToken,
          WEB_CLIENT.slice(6),
        ])
          assert.ok(!logs.includes(secret), `leaked: ${secret.slice(0, 12)}…`);
        assert.ok(
          logs.includes('login_failed') && logs.includes('"event":"login"'),
          'auth events are logged',
        );
      });
    });
  });

  // On a fresh copy of the seed, at the real time: the suite above has moved
  // its clock weeks on, past every seeded lesson.
  describe(`account deletion and what it leaves for others (${driver})`, () => {
    const suite = memberSuite(driver);
    let ip = 0;
    const remove = (email: string) =>
      call(
        suite.h.app,
        '/auth/delete',
        { email, password: 'proam-demo-2026' },
        { headers: client, remoteAddress: `127.0.9.${++ip}` },
      );
    type Pro = { reviewCount: number; ratingAverage: number | null };
    const proRead = async (who: string) =>
      (
        (await suite.post('ama1', '/user/read', { id: suite.ids[who] })).json
          .body as { pro: Pro }
      ).pro;
    /** The pro as the (cached) pro list shows them. */
    const proListed = async (who: string) => {
      const list = (await suite.post('ama1', '/users/pro/all', { size: 50 }))
        .json.body as ({ id: string } & { pro: Pro })[];
      return list.find((u) => u.id === suite.ids[who])?.pro;
    };

    it("takes a deleted amateur's reviews off the pro's count and average, in every cache", async () => {
      const figures = (p: Pro | undefined) => ({
        reviewCount: p?.reviewCount,
        ratingAverage: p?.ratingAverage,
      });
      // Read first, so the member cache and the pro list hold the old figures.
      const seeded = { reviewCount: 3, ratingAverage: 4.7 };
      assert.deepEqual(figures(await proRead('pro1')), seeded);
      assert.deepEqual(figures(await proListed('pro1')), seeded);
      // ama4 reviewed pro1 (★5) and likes only pro2: nothing but the review
      // makes the deletion change pro1's row (ama2's like of pro1 would).
      const written = await rowsWhere(
        suite.h,
        reviews,
        reviews.userId,
        suite.ids.ama4,
      );
      assert.deepEqual(
        written.map((r) => [r.proId, r.rating]),
        [[suite.ids.pro1, 5]],
      );
      assert.ok(
        !(await rowsWhere(suite.h, likes, likes.userId, suite.ids.ama4)).some(
          (l) => l.likeUserId === suite.ids.pro1,
        ),
      );

      assert.deepEqual((await remove('ama4@example.jp')).json.body, {
        deleted: true,
      });

      const left = (
        await suite.post('ama1', '/review/list', { proId: suite.ids.pro1 })
      ).json.body as { rating: number }[];
      assert.equal(left.length, 2);
      const sum = left.reduce((t, r) => t + r.rating, 0);
      const now = { reviewCount: 2, ratingAverage: sum / 2 };
      assert.equal(now.ratingAverage, 4.5);
      assert.deepEqual(figures(await proRead('pro1')), now);
      assert.deepEqual(figures(await proListed('pro1')), now);
      const [row] = await rowsWhere(suite.h, users, users.id, suite.ids.pro1);
      assert.equal(row!.ratingSum, sum);
      assert.equal(row!.reviewCount, 2);
    });

    it('refuses to delete a pro with a lesson to come that someone booked or waits for (409 Conflict, nothing changed), and deletes them once it is called off', async () => {
      const pro = suite.ids.pro5!;
      const db = suite.h.database.db;
      const lessonsOf = () =>
        rowsWhere(suite.h, schedules, schedules.proId, pro);
      const lessons = await lessonsOf();
      const toCome = lessons
        .filter(
          (l) =>
            lessonStart(l) > new Date() &&
            l.statusRound !== 'cancelled' &&
            l.statusRound !== 'done',
        )
        .sort((a, b) => a.date.localeCompare(b.date));
      const bookingsOf = (ids: string[]) =>
        db
          .select()
          .from(reservations)
          .where(inArray(reservations.scheduleId, ids));
      const bookings = await bookingsOf(lessons.map((l) => l.id));
      const booked = toCome.filter((l) =>
        bookings.some((b) => b.scheduleId === l.id && b.status === 'confirmed'),
      );
      const free = toCome.filter(
        (l) => !bookings.some((b) => b.scheduleId === l.id),
      );
      assert.ok(
        booked.length > 0 && free.length >= 2,
        'pro5 has booked and free lessons to come in the seed',
      );
      const likedBy = await rowsWhere(suite.h, likes, likes.likeUserId, pro);
      assert.ok(likedBy.length > 0, 'pro5 is liked in the seed');
      const ids = lessons.map((l) => l.id);
      /** What a deletion would take with it. */
      const held = async () => ({
        member: (await rowsWhere(suite.h, users, users.id, pro)).length,
        lessons: (await lessonsOf()).length,
        bookings: (await bookingsOf(ids)).length,
        waiting: (
          await db
            .select()
            .from(waitlist)
            .where(inArray(waitlist.scheduleId, ids))
        ).length,
        likedBy: (await rowsWhere(suite.h, likes, likes.likeUserId, pro))
          .length,
      });

      const refused = async (why: string) => {
        const before = await held();
        const r = await remove('pro5@example.jp');
        assert.equal(r.status, 409, `${why}: ${JSON.stringify(r.json)}`);
        assert.equal(r.json.code, 'Conflict', why);
        assert.deepEqual(await held(), before, `${why}: nothing changed`);
        assert.equal(
          (await signIn(suite.h.app, 'pro5@example.jp')).status,
          200,
          why,
        );
      };

      await refused('confirmed bookings');
      // Marked 終了 before it was held, a booked lesson is still one to come.
      await db
        .update(schedules)
        .set({ statusRound: 'done' })
        .where(eq(schedules.id, booked[0]!.id));
      await refused('a booked lesson to come marked done');
      await db
        .update(schedules)
        .set({ statusRound: booked[0]!.statusRound })
        .where(eq(schedules.id, booked[0]!.id));
      for (const l of booked)
        await suite.expect(
          'pro5',
          '/schedule/callOff',
          { id: l.id, reason: '都合により中止します' },
          200,
        );

      // Someone waiting for a place counts as much as a booking.
      const [a, b] = free;
      await db
        .insert(waitlist)
        .values({ scheduleId: a!.id, userId: suite.ids.ama3! });
      await refused('a waitlist');
      await suite.expect('ama3', '/schedule/waitlistLeave', { id: a!.id }, 200);

      // So does a place held for payment.
      await db.insert(reservations).values({
        scheduleId: a!.id,
        userId: suite.ids.ama3!,
        status: 'pending',
      });
      await refused('a pending booking');
      await db
        .delete(reservations)
        .where(
          and(
            eq(reservations.scheduleId, a!.id),
            eq(reservations.userId, suite.ids.ama3!),
          ),
        );

      // A lesson whose start has passed (not yet marked done) stops nobody.
      await db.insert(reservations).values({
        scheduleId: b!.id,
        userId: suite.ids.ama3!,
        status: 'confirmed',
      });
      await db
        .update(schedules)
        .set({ date: addDays(japanDate(), -1) })
        .where(eq(schedules.id, b!.id));

      assert.deepEqual((await remove('pro5@example.jp')).json.body, {
        deleted: true,
      });
      assert.equal((await rowsWhere(suite.h, users, users.id, pro)).length, 0);
      assert.equal((await lessonsOf()).length, 0);
    });
  });
}
