import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { punchoutSessions, users } from '../../src/db/schema.js';
import { call, DRIVERS, harness, TestClock, type Harness } from '../helper.js';
import { punchoutSetupRequest } from '../../../../test-support/punchout-request.js';

const BUYERS =
  'acme-procure:acme-shared-secret-42@https://procure.acme.example';

for (const driver of DRIVERS) {
  describe(`punch-out check-in (${driver})`, () => {
    let h: Harness;
    const clock = new TestClock();
    const setup = (xml: string, type = 'text/xml') =>
      h.app.inject({
        method: 'POST',
        url: '/api/punchout/setup',
        headers: { 'content-type': type },
        payload: xml,
      });
    const ticketOf = (body: string) =>
      /#\/checkin\/([A-Za-z0-9_-]+)<\/URL>/.exec(body)?.[1];
    const count = async () =>
      (await h.database.db.select().from(punchoutSessions)).length;

    before(async () => {
      h = await harness(
        driver,
        { PUNCHOUT_BUYERS: BUYERS, PUBLIC_URL: 'https://proam.example.jp' },
        { clock },
      );
    });
    after(() => h.close());

    it('answers a PunchOutSetupResponse whose StartPage is a one-time check-in link', async () => {
      const r = await setup(punchoutSetupRequest());
      assert.equal(r.statusCode, 200, r.body);
      assert.match(String(r.headers['content-type']), /text\/xml/);
      // The return to the purchasing system is a form post: its origin must be allowed.
      const page = await h.app.inject({ method: 'GET', url: '/healthz' });
      assert.match(
        String(page.headers['content-security-policy']),
        /form-action 'self' https:\/\/procure\.acme\.example/,
      );
      assert.match(r.body, /<Status code="200" text="OK"\/>/);
      assert.match(
        r.body,
        /<StartPage><URL>https:\/\/proam\.example\.jp\/#\/checkin\/[A-Za-z0-9_-]{43}<\/URL><\/StartPage>/,
      );
      const ticket = ticketOf(r.body)!;
      const c = await call(h.app, '/punchout/checkin', { ticket });
      assert.equal(c.status, 200, JSON.stringify(c.json));
      const body = c.json.body as {
        checkin: { punchOutSetupRequest: Record<string, string> };
        token: { accessToken: string; refreshToken: string };
        user: { type: string; id: string };
      };
      assert.deepEqual(body.checkin.punchOutSetupRequest, {
        userId: 'taro.yamada',
        userName: '山田 太郎',
        buyer: 'acme-procure',
        buyerCookie: 'COOKIE-8f2a&b',
        browserFormPost: 'https://procure.acme.example/punchout/return',
      });
      assert.deepEqual(body.user, {
        id: 'taro.yamada',
        userName: '山田 太郎',
        type: 'BUYER',
      });
      // The ticket works once.
      assert.equal(
        (await call(h.app, '/punchout/checkin', { ticket })).json.code,
        'InvalidCode',
      );

      // The buyer session: reads pros, changes nothing; its refresh reports BUYER.
      const auth = {
        headers: { authorization: `Bearer ${body.token.accessToken}` },
      };
      const pros = await call(
        h.app,
        '/users/pro/condition',
        { area: '東京都' },
        auth,
      );
      assert.equal(pros.status, 200);
      const pro = (pros.json.body as { id: string }[])[0]!;
      assert.equal(
        (await call(h.app, '/user/read', { id: pro.id }, auth)).status,
        200,
      );
      assert.equal(
        (await call(h.app, '/schedule/getActive', { userId: pro.id }, auth))
          .status,
        200,
      );
      for (const [p, b] of [
        ['/user/update', { bio: 'x' }],
        ['/user/likeCreate', { userId: 'x', likeUserId: pro.id }],
        ['/storage/upload', { data: 'aGVsbG8=' }],
        ['/schedule/reserve', { id: 'x' }],
        ['/user/like', { userType: 'pro', userId: pro.id }],
      ] as const) {
        const r = await call(h.app, p, b, auth);
        assert.equal(r.json.code, 'Forbidden', p);
      }
      const refreshed = await call(h.app, '/auth/refresh', undefined, {
        headers: { authorization: `Bearer ${body.token.refreshToken}` },
      });
      assert.equal(
        (refreshed.json.body as { user: { type: string } }).user.type,
        'BUYER',
      );
      // Buyers are not members: never listed, never readable as a user.
      const [buyerRow] = (await h.database.db.select().from(users)).filter(
        (u) => u.type === 'buyer',
      );
      const { tok } = await import('../helper.js').then((m) =>
        m.memberTokens(h),
      );
      assert.equal(
        (
          await call(
            h.app,
            '/user/read',
            { id: buyerRow!.id },
            { headers: { authorization: `Bearer ${tok.ama2}` } },
          )
        ).json.body,
        null,
      );
    });

    it('refuses a bad shared secret, an unknown buyer, a foreign return URL and malformed XML, storing nothing', async () => {
      const before = await count();
      const bad: [string, number][] = [
        [punchoutSetupRequest({ secret: 'wrong-secret-value-1' }), 401],
        [punchoutSetupRequest({ identity: 'someone-else' }), 401],
        [punchoutSetupRequest({ formPost: 'https://evil.example/steal' }), 400],
        [punchoutSetupRequest({ formPost: 'javascript:alert(1)' }), 400],
        ['<cXML><Header>', 400],
        ['not xml at all', 400],
      ];
      for (const [xml, code] of bad) {
        const r = await setup(xml);
        assert.equal(r.statusCode, code, xml.slice(0, 80));
        assert.match(r.body, new RegExp(`<Status code="${code}"`));
        assert.doesNotMatch(r.body, /StartPage/);
      }
      assert.equal(await count(), before);
    });

    it('refuses hostile XML (entity expansion, external entities) without expanding it', async () => {
      const before = await count();
      const billion = `<?xml version="1.0"?><!DOCTYPE cXML [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><cXML>&c;</cXML>`;
      const xxe = punchoutSetupRequest()
        .replace(
          '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">',
          '<!DOCTYPE cXML [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        )
        .replace('COOKIE-8f2a&amp;b', '&x;');
      for (const xml of [billion, xxe]) {
        const t0 = performance.now();
        const r = await setup(xml);
        assert.equal(r.statusCode, 400);
        assert.ok(performance.now() - t0 < 500);
        assert.doesNotMatch(r.body, /root:/);
      }
      const huge = await setup(
        punchoutSetupRequest({
          extra: `<Extrinsic name="pad">${'x'.repeat(70_000)}</Extrinsic>`,
        }),
      );
      assert.equal(huge.statusCode, 413);
      assert.equal(await count(), before);
      const json = await setup('{}', 'application/json');
      assert.equal(json.statusCode, 400);
    });

    it('expires a ticket after 5 minutes', async () => {
      const ticket = ticketOf((await setup(punchoutSetupRequest())).body)!;
      clock.advance(5 * 60_000 + 1000);
      assert.equal(
        (await call(h.app, '/punchout/checkin', { ticket })).json.code,
        'InvalidCode',
      );
      assert.equal(
        (await call(h.app, '/punchout/checkin', { ticket: 'x'.repeat(43) }))
          .json.code,
        'InvalidCode',
      );
    });
  });
}
