import { beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { sessionExpired } from '@/lib/api';
import { createLoginResult, makeAccessToken } from '@/testing/auth';
import { isAccessTokenFresh, readJwtExp } from '../access-token';
import {
  connectivityChanged,
  loggedOut,
  renewalFailed,
  selectConnectionProblem,
  selectHoldsLogin,
  tokenCleared,
  tokenReceived,
  tokenRefreshed,
} from '../auth-slice';
import { isBuyerLogin, parseCheckin } from '../checkin-data';

const CHECKIN = JSON.stringify({
  punchOutSetupRequest: {
    userId: 'buyer-42',
    buyerCookie: 'c',
    browserFormPost: 'https://buyer.example.jp/return',
  },
});

/** What the server answers for a punch-out session: type BUYER, token typ `buyer`. */
const buyerLogin = (refreshToken = 'r-buyer') => ({
  token: {
    accessToken: makeAccessToken(900, { typ: 'buyer', sub: 'b-internal' }),
    refreshToken,
  },
  user: { id: 'b-internal', userName: '山田 太郎', type: 'BUYER' as const },
});

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
    '%s removes the stored refresh token and check-in record and empties the state',
    (_name, action, status) => {
      const store = makeStore();
      localStorage.setItem('checkin', CHECKIN);
      store.dispatch(tokenReceived(buyerLogin()));
      expect(localStorage.getItem('refresh_token')).not.toBeNull();
      expect(localStorage.getItem('checkin')).toBe(CHECKIN);
      store.dispatch(action);
      expect(localStorage.getItem('refresh_token')).toBeNull();
      expect(localStorage.getItem('checkin')).toBeNull();
      expect(store.getState().auth).toMatchObject({
        user: null,
        accessToken: null,
        accessTokenExp: null,
        status,
        renewalProblem: null,
      });
    },
  );

  it('when the server says buyer, a refresh names the BUYER from the check-in record', () => {
    localStorage.setItem('checkin', CHECKIN);
    const store = makeStore();
    store.dispatch(tokenRefreshed(buyerLogin()));
    expect(store.getState().auth.user).toEqual({
      id: 'buyer-42',
      userName: 'buyer-42',
      type: 'BUYER',
    });
    expect(localStorage.getItem('checkin')).toBe(CHECKIN);
  });

  it('a buyer session without a check-in record is still a buyer, named by the server', () => {
    const store = makeStore();
    store.dispatch(tokenRefreshed(buyerLogin()));
    expect(store.getState().auth.user).toEqual(buyerLogin().user);
  });

  it("a member's refresh ignores a stored check-in record and removes it (never a buyer)", () => {
    localStorage.setItem('checkin', CHECKIN);
    const store = makeStore();
    const result = createLoginResult();
    store.dispatch(tokenRefreshed(result));
    expect(store.getState().auth.user).toEqual(result.user);
    expect(localStorage.getItem('checkin')).toBeNull();
  });

  it("a member's login removes a stored check-in record; a buyer's check-in keeps it", () => {
    localStorage.setItem('checkin', CHECKIN);
    const store = makeStore();
    store.dispatch(tokenReceived(buyerLogin()));
    expect(localStorage.getItem('checkin')).toBe(CHECKIN);
    store.dispatch(tokenReceived(createLoginResult({ refreshToken: 'r-m' })));
    expect(localStorage.getItem('checkin')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBe('r-m');
    expect(store.getState().auth.user?.type).toBe('amature');
  });

  it("takes the server's word for a buyer: the user type or the token's typ claim", () => {
    expect(isBuyerLogin(buyerLogin())).toBe(true);
    expect(isBuyerLogin(createLoginResult())).toBe(false);
    expect(
      isBuyerLogin({
        ...createLoginResult(),
        token: {
          accessToken: makeAccessToken(900, { typ: 'buyer' }),
          refreshToken: 'r',
        },
      }),
    ).toBe(true);
    expect(
      isBuyerLogin(
        createLoginResult({
          user: { id: 'x', userName: 'x', type: 'BUYER' },
        }),
      ),
    ).toBe(true);
  });

  it('ignores a check-in record without a user id', () => {
    localStorage.setItem('checkin', '{"punchOutSetupRequest":{}}');
    const store = makeStore();
    const result = buyerLogin();
    store.dispatch(tokenRefreshed(result));
    expect(store.getState().auth.user).toEqual(result.user);
    expect(parseCheckin('not json')).toBeNull();
    expect(parseCheckin('{"punchOutSetupRequest":{"userId":7}}')).toBeNull();
  });
});

describe('a renewal that failed for a passing reason', () => {
  it('at startup: the login waits (reconnecting), still held, user unknown, token kept', () => {
    localStorage.setItem('refresh_token', 'r-stored');
    const store = makeStore();
    store.dispatch(renewalFailed('offline'));
    const { auth } = store.getState();
    expect(auth).toMatchObject({
      status: 'reconnecting',
      user: null,
      renewalProblem: 'offline',
    });
    expect(selectHoldsLogin(store.getState())).toBe(true);
    expect(localStorage.getItem('refresh_token')).toBe('r-stored');
  });

  it('during use: the member stays logged in with their user', () => {
    const store = makeStore();
    const result = createLoginResult();
    store.dispatch(tokenReceived(result));
    store.dispatch(renewalFailed('unavailable'));
    expect(store.getState().auth).toMatchObject({
      status: 'authenticated',
      user: result.user,
      renewalProblem: 'unavailable',
    });
    expect(selectConnectionProblem(store.getState())).toBe('unavailable');
    store.dispatch(tokenRefreshed(createLoginResult()));
    expect(store.getState().auth.renewalProblem).toBeNull();
    expect(selectConnectionProblem(store.getState())).toBeNull();
  });

  it('the browser being offline shows as offline whatever the session', () => {
    const store = makeStore();
    expect(selectConnectionProblem(store.getState())).toBeNull();
    expect(selectHoldsLogin(store.getState())).toBe(false);
    store.dispatch(connectivityChanged(false));
    expect(selectConnectionProblem(store.getState())).toBe('offline');
    store.dispatch(connectivityChanged(true));
    expect(selectConnectionProblem(store.getState())).toBeNull();
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
