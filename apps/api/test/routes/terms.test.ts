import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { ERRORS, TERMS_VERSION } from '@proam/contract';
import { users } from '../../src/db/schema.js';
import { DEMO_PASSWORD } from '../../src/db/seed.js';
import {
  assertRefusesSetting,
  call,
  configLoader,
  DRIVERS,
  memberSuite,
  type MemberSuite,
  signIn,
} from '../helper.js';

type SessionUser = {
  id: string;
  userName: string;
  type: string;
  termsAccepted?: boolean;
};
type LoginBody = {
  token: { accessToken: string; refreshToken: string };
  user: SessionUser;
};

let ip = 0;
/** Registration is limited per IP (RL-01), so each attempt speaks from its own address. */
const nextIp = () => `10.9.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

const login = async (suite: MemberSuite, mail: string) => {
  const r = await signIn(suite.h.app, mail, DEMO_PASSWORD, nextIp());
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return r.json.body as LoginBody;
};

const stored = async (suite: MemberSuite, id: string) => {
  const [row] = await suite.h.database.db
    .select({ v: users.termsVersion, at: users.termsAcceptedAt })
    .from(users)
    .where(eq(users.id, id));
  return row!;
};

/** Mails a code to `email` and registers with it, plus `extra` fields. */
async function register(
  suite: MemberSuite,
  email: string,
  extra: Record<string, unknown>,
) {
  const from = nextIp();
  await call(suite.h.app, '/auth/code', { email }, { remoteAddress: from });
  const mail = await suite.h.mailTo(email, /登録画面に入力してください/);
  const code = /認証コード: (\d+)/.exec(mail)![1]!;
  return call(
    suite.h.app,
    '/user/create',
    {
      email,
      code,
      password: 'Fairway-Birdie-77',
      userName: '規約 確認',
      type: 'amature',
      ...extra,
    },
    { remoteAddress: from },
  );
}

for (const driver of DRIVERS) {
  describe(`terms agreement (${driver})`, () => {
    const suite = memberSuite(driver);

    it('counts the demo members as agreed to the version in force', async () => {
      const body = await login(suite, 'ama1@example.jp');
      assert.equal(body.user.termsAccepted, true);
      const row = await stored(suite, suite.ids.ama1!);
      assert.equal(row.v, TERMS_VERSION);
      assert.ok(row.at instanceof Date);
    });

    it('registers without the field as API.md has it, and asks that member at login', async () => {
      const email = `terms-none-${driver}@example.jp`;
      const r = await register(suite, email, {});
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const body = r.json.body as LoginBody;
      assert.equal(body.user.termsAccepted, false);
      const row = await stored(suite, body.user.id);
      assert.equal(row.v, null);
      assert.equal(row.at, null);
    });

    it('stores the version and the time agreed to at registration', async () => {
      const email = `terms-yes-${driver}@example.jp`;
      const before = Date.now();
      const r = await register(suite, email, { termsVersion: TERMS_VERSION });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const body = r.json.body as LoginBody;
      assert.equal(body.user.termsAccepted, true);
      const row = await stored(suite, body.user.id);
      assert.equal(row.v, TERMS_VERSION);
      assert.ok(row.at!.getTime() >= before - 1000);
    });

    it('refuses a registration agreeing to another version, before the code is used', async () => {
      const email = `terms-old-${driver}@example.jp`;
      const from = nextIp();
      await call(suite.h.app, '/auth/code', { email }, { remoteAddress: from });
      const mail = await suite.h.mailTo(email, /登録画面に入力してください/);
      const code = /認証コード: (\d+)/.exec(mail)![1]!;
      const create = (termsVersion: unknown) =>
        call(
          suite.h.app,
          '/user/create',
          {
            email,
            code,
            password: 'Fairway-Birdie-77',
            userName: '規約 旧版',
            type: 'pro',
            termsVersion,
          },
          { remoteAddress: from },
        );
      const r = await create('2020-01-01');
      assert.equal(r.status, 400);
      assert.equal(r.json.code, 'ValidationError');
      assert.equal(r.json.msg, `${ERRORS.ValidationError.msg}（termsVersion）`);
      assert.equal((await create('yesterday')).json.code, 'ValidationError');
      const [row] = await suite.h.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email));
      assert.equal(row, undefined, 'nobody registered');
      // The code was not used up: the form sent again with the version in force registers.
      const ok = await create(TERMS_VERSION);
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
      assert.equal((ok.json.body as LoginBody).user.termsAccepted, true);
    });

    it('asks a member with an older version again at login, refresh and handshake until they agree', async () => {
      await suite.h.database.db
        .update(users)
        .set({
          termsVersion: '2020-01-01',
          termsAcceptedAt: new Date('2020-01-01T00:00:00Z'),
        })
        .where(eq(users.id, suite.ids.ama2!));
      // The member cache may hold the row from before (the trigger evicts it on commit).
      suite.h.app.userCache.evict(suite.ids.ama2!);
      const first = await login(suite, 'ama2@example.jp');
      assert.equal(first.user.termsAccepted, false);
      const refreshed = await call(suite.h.app, '/auth/refresh', undefined, {
        headers: { authorization: `Bearer ${first.token.refreshToken}` },
      });
      assert.equal(
        (refreshed.json.body as LoginBody).user.termsAccepted,
        false,
      );

      const wrong = await call(
        suite.h.app,
        '/user/acceptTerms',
        { version: '2020-01-01' },
        { headers: { authorization: `Bearer ${first.token.accessToken}` } },
      );
      assert.equal(wrong.status, 400);
      assert.equal(wrong.json.code, 'ValidationError');
      assert.equal(wrong.json.msg, `${ERRORS.ValidationError.msg}（version）`);
      assert.equal((await stored(suite, suite.ids.ama2!)).v, '2020-01-01');

      const ok = await call(
        suite.h.app,
        '/user/acceptTerms',
        { version: TERMS_VERSION },
        { headers: { authorization: `Bearer ${first.token.accessToken}` } },
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
      const accepted = ok.json.body as { version: string; acceptedAt: string };
      assert.equal(accepted.version, TERMS_VERSION);
      assert.ok(Date.parse(accepted.acceptedAt) > Date.parse('2026-01-01'));
      const row = await stored(suite, suite.ids.ama2!);
      assert.equal(row.v, TERMS_VERSION);
      assert.equal(row.at!.toISOString(), accepted.acceptedAt);

      const handshake = await call(suite.h.app, '/auth/handshake', undefined, {
        headers: {
          authorization: `Bearer ${(refreshed.json.body as LoginBody).token.refreshToken}`,
        },
      });
      assert.equal(handshake.status, 200, JSON.stringify(handshake.json));
      assert.equal((handshake.json.body as LoginBody).user.termsAccepted, true);
      assert.equal(
        (await login(suite, 'ama2@example.jp')).user.termsAccepted,
        true,
      );
    });

    it('takes the agreement only from a member with a bearer token and a well-formed body', async () => {
      const anonymous = await call(suite.h.app, '/user/acceptTerms', {
        version: TERMS_VERSION,
      });
      assert.equal(anonymous.status, 401);
      for (const body of [
        {},
        { version: 20261201 },
        { version: TERMS_VERSION, userId: suite.ids.ama3 },
      ]) {
        const r = await suite.post('ama3', '/user/acceptTerms', body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.json.code, 'ValidationError');
      }
      const pro = await suite.post('pro1', '/user/acceptTerms', {
        version: TERMS_VERSION,
      });
      assert.equal(pro.status, 200);
    });
  });
}

describe('company details for the legal pages (configuration)', () => {
  const load = configLoader('proam-terms-config-', {
    JWT_SECRET: 'x'.repeat(32),
  });

  /** Each setting of the legal pages: the field it fills, a value it takes and one it refuses. */
  const settings = [
    {
      setting: 'COMPANY_ADDRESS',
      field: 'companyAddress',
      good: '大阪府大阪市北区梅田1-1-1',
      bad: 'あ'.repeat(201),
    },
    {
      setting: 'COMPANY_PHONE',
      field: 'companyPhone',
      good: '06-1234-5678',
      bad: 'call us',
    },
    {
      setting: 'COMPANY_REPRESENTATIVE',
      field: 'companyRepresentative',
      good: '佐藤 花子',
      bad: 'あ'.repeat(101),
    },
    {
      setting: 'COMPANY_MAIL',
      field: 'companyMail',
      good: 'legal@example.com',
      bad: 'not-an-address',
    },
  ] as const;

  it('reads COMPANY_ADDRESS, COMPANY_PHONE, COMPANY_REPRESENTATIVE and COMPANY_MAIL, trimmed', () => {
    const c = load(
      Object.fromEntries(settings.map((s) => [s.setting, ` ${s.good} `])),
    );
    for (const { setting, field, good } of settings)
      assert.equal(c[field], good, setting);
  });

  it('has demo defaults, the mail address falling back to CONTACT_TO', () => {
    const c = load({ CONTACT_TO: 'office@example.com' });
    assert.equal(c.companyMail, 'office@example.com');
    assert.ok(c.companyAddress.length > 0);
    assert.match(c.companyPhone, /^[0-9-]+$/);
    assert.ok(c.companyRepresentative.length > 0);
  });

  it('refuses unusable values and names the setting', () => {
    for (const { setting, bad } of settings)
      assertRefusesSetting(load, { [setting]: bad }, setting);
  });
});
