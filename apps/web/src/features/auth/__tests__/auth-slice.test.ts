import { beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { sessionExpired } from '@/lib/api';
import { createLoginResult, makeAccessToken } from '@/testing/auth';
import { isAccessTokenFresh, readJwtExp } from '../access-token';
import {
  loggedOut,
  tokenCleared,
  tokenReceived,
  tokenRefreshed,
} from '../auth-slice';
import { parseCheckin } from '../checkin-data';

beforeEach(() => {
  localStorage.clear();
});

const storedKeys = () =>
  Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));

describe('auth slice', () => {
  it('starts anonymous without a stored refresh token, restoring with one', () => {
    expect(makeStore().getState().auth.status).toBe('anonymous');
    localStorage.setItem('refresh_token', 'stored');
    expect(makeStore().getState().auth.status).toBe('restoring');
  });

  it('login stores the token and user, keeps the access token out of storage', () => {
    const store = makeStore();
    const result = createLoginResult({ refreshToken: 'r-login' });
    store.dispatch(tokenReceived(result));
    const { auth } = store.getState();
    expect(auth).toMatchObject({
      status: 'authenticated',
      user: result.user,
      accessToken: result.token.accessToken,
    });
    expect(auth.accessTokenExp).toBe(readJwtExp(result.token.accessToken));
    expect(localStorage.getItem('refresh_token')).toBe('r-login');
    expect(storedKeys()).toEqual(['refresh_token']);
    expect(JSON.stringify(localStorage)).not.toContain(
      result.token.accessToken,
    );
  });

  it('refresh stores the token entry and writes the new refresh token to storage', () => {
    localStorage.setItem('refresh_token', 'r-old');
    const store = makeStore();
    const result = createLoginResult({ refreshToken: 'r-new' });
    store.dispatch(
      tokenRefreshed({ ...result, serverTime: new Date().toISOString() }),
    );
    expect(store.getState().auth).toMatchObject({
      status: 'authenticated',
      user: result.user,
      accessToken: result.token.accessToken,
    });
    expect(localStorage.getItem('refresh_token')).toBe('r-new');
  });

  it('learns the server clock offset from the handshake', () => {
    const store = makeStore();
    const ahead = new Date(Date.now() + 600_000).toISOString();
    store.dispatch(
      tokenRefreshed({ ...createLoginResult(), serverTime: ahead }),
    );
    const offset = store.getState().auth.serverOffsetMs;
    expect(offset).toBeGreaterThan(590_000);
    expect(offset).toBeLessThan(610_000);
  });

  it.each([
    ['tokenCleared', tokenCleared(), 'anonymous'],
    ['loggedOut', loggedOut(), 'loggedOut'],
    ['sessionExpired', sessionExpired(), 'anonymous'],
  ] as const)(
    '%s removes the stored refresh token and empties the state',
    (_name, action, status) => {
      const store = makeStore();
      store.dispatch(tokenReceived(createLoginResult()));
      expect(localStorage.getItem('refresh_token')).not.toBeNull();
      store.dispatch(action);
      expect(localStorage.getItem('refresh_token')).toBeNull();
      expect(store.getState().auth).toMatchObject({
        user: null,
        accessToken: null,
        accessTokenExp: null,
        status,
      });
    },
  );

  it('with a check-in record, a refresh makes the user the BUYER of the setup request', () => {
    localStorage.setItem(
      'checkin',
      JSON.stringify({
        punchOutSetupRequest: { userId: 'buyer-42', buyerCookie: 'c' },
        browserFormPost: 'https://buyer.example.jp/return',
      }),
    );
    const store = makeStore();
    store.dispatch(tokenRefreshed(createLoginResult()));
    expect(store.getState().auth.user).toEqual({
      id: 'buyer-42',
      userName: 'buyer-42',
      type: 'BUYER',
    });
  });

  it('ignores a check-in record without a user id', () => {
    localStorage.setItem('checkin', '{"punchOutSetupRequest":{}}');
    const store = makeStore();
    const result = createLoginResult();
    store.dispatch(tokenRefreshed(result));
    expect(store.getState().auth.user).toEqual(result.user);
    expect(parseCheckin('not json')).toBeNull();
    expect(parseCheckin('{"punchOutSetupRequest":{"userId":7}}')).toBeNull();
  });
});

describe('access token expiry', () => {
  it('reads exp from a base64url payload', () => {
    // "ü?" makes base64url use '-' / '_' where base64 would use '+' / '/'.
    const token = makeAccessToken(900, { name: 'üü??>>' });
    const exp = readJwtExp(token);
    expect(exp).toBe(Math.floor(Date.now() / 1000) + 900);
    expect(readJwtExp('not-a-jwt')).toBeNull();
    expect(readJwtExp('a.!!!.c')).toBeNull();
  });

  it('counts a token as expired 300 s before its exp', () => {
    const now = Date.now();
    const exp = Math.floor(now / 1000) + 301;
    expect(isAccessTokenFresh(exp, 0, now)).toBe(true);
    expect(isAccessTokenFresh(exp - 2, 0, now)).toBe(false);
    expect(isAccessTokenFresh(null, 0, now)).toBe(false);
    // A server clock 10 minutes ahead makes the same token stale.
    expect(isAccessTokenFresh(exp + 200, 600_000, now)).toBe(false);
  });
});
