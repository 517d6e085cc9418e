import type { AuthUser, LoginResult } from '@proam/contract';
import { makeStore } from '@/app/store';
import { tokenReceived } from '@/features/auth/auth-slice';
import { factory } from './factories';

const b64url = (value: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(value)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

let serial = 0;

/** An unsigned JWT-shaped token whose payload carries `exp` (seconds from now). */
export const makeAccessToken = (
  expiresInSeconds: number,
  claims: Record<string, unknown> = {},
): string =>
  [
    b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })),
    b64url(
      JSON.stringify({
        sub: 'u-1',
        typ: 'amature',
        exp: Math.floor(Date.now() / 1000) + expiresInSeconds,
        // Two tokens made in the same second still differ, as the server's do.
        jti: `t-${++serial}`,
        ...claims,
      }),
    ),
    'signature',
  ].join('.');

export const createAuthUser = factory((): AuthUser => ({
  id: 'u-1',
  userName: '山本 拓也',
  type: 'amature',
}));

export const createLoginResult = ({
  expiresIn = 900,
  refreshToken = 'refresh-1',
  user = createAuthUser(),
}: {
  expiresIn?: number;
  refreshToken?: string;
  user?: AuthUser;
} = {}): LoginResult => ({
  token: { accessToken: makeAccessToken(expiresIn), refreshToken },
  user,
});

/** A fresh store logged in as `user` (the amateur u-1 unless overridden), for pages behind the login. */
export const storeLoggedInAs = (
  user: Partial<AuthUser> = {},
  { expiresIn }: { expiresIn?: number } = {},
) => {
  const store = makeStore();
  store.dispatch(
    tokenReceived(createLoginResult({ expiresIn, user: createAuthUser(user) })),
  );
  return store;
};
