import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { LoginResult } from '@proam/contract';
import { users } from '../../src/db/schema.js';
import {
  bearer,
  call,
  DRIVERS,
  memberSuite,
  signIn,
  type MemberSuite,
} from '../helper.js';

/** A new login of the seeded member `who` (ama1, pro2…): its tokens. */
async function login(suite: MemberSuite, who: string) {
  const r = await signIn(suite.h.app, `${who}@example.jp`);
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return (r.json.body as LoginResult).token;
}

for (const driver of DRIVERS) {
  describe(`refresh after a suspension or a password reset (${driver})`, () => {
    const suite = memberSuite(driver);
    const { ids } = suite;
    const renew = (path: '/auth/refresh' | '/auth/handshake', token: string) =>
      call(suite.h.app, path, undefined, bearer(token));
    const assertRefused = async (
      path: '/auth/refresh' | '/auth/handshake',
      token: string,
    ) => {
      const r = await renew(path, token);
      assert.equal(r.status, 401, JSON.stringify(r.json));
      assert.equal(r.json.code, 'InvalidRefreshToken');
    };
    /** Writes the member's row as a change would that committed before its logins were revoked. */
    const setUser = (
      who: string,
      set: { suspendedAt?: Date | null; tokensValidAfter?: Date | null },
    ) =>
      suite.h.database.db.update(users).set(set).where(eq(users.id, ids[who]!));

    it('refuses a suspended member, on refresh and handshake, even while their logins are not revoked', async () => {
      const a = await login(suite, 'ama1');
      const b = await login(suite, 'ama1');
      await setUser('ama1', { suspendedAt: new Date() });
      try {
        await assertRefused('/auth/refresh', a.refreshToken);
        await assertRefused('/auth/handshake', b.refreshToken);
      } finally {
        await setUser('ama1', { suspendedAt: null });
      }
      // Refused for good: the login ended with the refusal.
      await assertRefused('/auth/refresh', a.refreshToken);
    });

    it('refuses a login begun before tokensValidAfter (a reset committed, its revocation not yet), and takes one begun after', async () => {
      const before = await login(suite, 'ama2');
      const handshake = await login(suite, 'ama2');
      await new Promise((r) => setTimeout(r, 5));
      await setUser('ama2', { tokensValidAfter: new Date() });
      await assertRefused('/auth/refresh', before.refreshToken);
      await assertRefused('/auth/handshake', handshake.refreshToken);
      const after = await login(suite, 'ama2');
      const r = await renew('/auth/refresh', after.refreshToken);
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const h = await renew(
        '/auth/handshake',
        (r.json.body as LoginResult).token.refreshToken,
      );
      assert.equal(h.status, 200, JSON.stringify(h.json));
    });

    it('refuses a refresh made the moment a suspension has committed (its logins end no later)', async () => {
      const { refreshToken } = await login(suite, 'ama4');
      const { repos } = suite.h.app;
      const transaction = repos.transaction;
      let during: Awaited<ReturnType<typeof renew>> | undefined;
      // The suspension's transaction (audited): right after its COMMIT, the
      // member's app refreshes, before the route has gone any further.
      repos.transaction = async (work) => {
        repos.transaction = transaction;
        const done = await transaction(work);
        during = await renew('/auth/refresh', refreshToken);
        return done;
      };
      try {
        await suite.expect(
          'admin',
          '/admin/suspend',
          { id: ids.ama4, suspended: true, reason: 'テスト' },
          200,
        );
      } finally {
        repos.transaction = transaction;
      }
      assert.ok(during, 'the refresh ran');
      assert.equal(during.status, 401, JSON.stringify(during.json));
      assert.equal(during.json.code, 'InvalidRefreshToken');
    });
  });
}
