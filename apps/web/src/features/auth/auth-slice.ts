import {
  createListenerMiddleware,
  createSlice,
  isAnyOf,
  type PayloadAction,
} from '@reduxjs/toolkit';
import type { AuthUser, LoginResult, Token } from '@proam/contract';
import { sessionExpired } from '@/lib/api';
import { readJwtExp } from './access-token';
import {
  buyerFromCheckin,
  isBuyerLogin,
  parseCheckin,
  type BuyerUser,
} from './checkin-data';
import {
  loadRefreshToken,
  readCheckinRaw,
  readRefreshToken,
  removeCheckinRecord,
  removeRefreshToken,
  writeRefreshToken,
} from './token-storage';

// Inside the Capacitor shell the stored login comes from the Keychain or
// Keystore, which answers asynchronously: the first state (restoring or
// anonymous) must wait for it. On the web this resolves at once.
await loadRefreshToken();

export type SessionUser = AuthUser | BuyerUser;

/**
 * `restoring`: a stored refresh token is being exchanged at startup;
 * `reconnecting`: that exchange failed for a passing reason (no network, a
 * busy server), so the login is kept, the user is not known yet, and the
 * exchange is retried (auth-session.ts);
 * `loggedOut`: the person logged out themself (no way back to a tab).
 */
export type AuthStatus =
  'restoring' | 'reconnecting' | 'authenticated' | 'anonymous' | 'loggedOut';

/**
 * Why the last renewal of the stored login failed for a passing reason:
 * `offline` (no network), `unavailable` (the server answered 5xx or 429, or
 * could not be understood). Null when no renewal is waiting for a retry.
 */
export type RenewalProblem = 'offline' | 'unavailable';

export type AuthState = {
  user: SessionUser | null;
  /** In memory only, never in storage. */
  accessToken: string | null;
  /** The access token's `exp` in seconds, read from its payload. */
  accessTokenExp: number | null;
  /** Server clock minus the device clock, learnt at the handshake. */
  serverOffsetMs: number;
  status: AuthStatus;
  /** The browser's own view of its connection (`navigator.onLine` and its events). */
  browserOnline: boolean;
  renewalProblem: RenewalProblem | null;
};

type RefreshPayload = {
  token: Token;
  user: AuthUser;
  /** The server says this is a punch-out buyer session. */
  isBuyer: boolean;
  /** That buyer's identity from the check-in record, when one is stored. */
  buyer: BuyerUser | null;
  serverOffsetMs: number | null;
};

const browserOnline = (): boolean =>
  typeof navigator === 'undefined' || navigator.onLine !== false;

const initialAuthState = (): AuthState => ({
  user: null,
  accessToken: null,
  accessTokenExp: null,
  serverOffsetMs: 0,
  status: readRefreshToken() ? 'restoring' : 'anonymous',
  browserOnline: browserOnline(),
  renewalProblem: null,
});

const storeToken = (state: AuthState, token: Token) => {
  state.accessToken = token.accessToken;
  state.accessTokenExp = readJwtExp(token.accessToken);
  state.status = 'authenticated';
  state.renewalProblem = null;
};

const empty = (state: AuthState, status: AuthStatus) => {
  state.user = null;
  state.accessToken = null;
  state.accessTokenExp = null;
  state.status = status;
  state.renewalProblem = null;
};

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** Login, registration or check-in answered with a token. */
    tokenReceived(state, action: PayloadAction<LoginResult>) {
      storeToken(state, action.payload.token);
      state.user = action.payload.user;
    },
    /** A refresh or the startup handshake rotated the token. */
    tokenRefreshed: {
      reducer(state, action: PayloadAction<RefreshPayload>) {
        const { token, user, isBuyer, buyer, serverOffsetMs } = action.payload;
        storeToken(state, token);
        // Buyer mode only when the server says so; the record only names the buyer.
        state.user = isBuyer
          ? (buyer ?? { id: user.id, userName: user.userName, type: 'BUYER' })
          : user;
        if (serverOffsetMs !== null) state.serverOffsetMs = serverOffsetMs;
      },
      // Storage and the clock are read here so the reducer stays pure.
      prepare(result: LoginResult & { serverTime?: string }) {
        const serverMs = result.serverTime
          ? Date.parse(result.serverTime)
          : NaN;
        const isBuyer = isBuyerLogin(result);
        return {
          payload: {
            token: result.token,
            user: result.user,
            isBuyer,
            buyer: isBuyer
              ? buyerFromCheckin(parseCheckin(readCheckinRaw()))
              : null,
            serverOffsetMs: Number.isNaN(serverMs)
              ? null
              : serverMs - Date.now(),
          },
        };
      },
    },
    /**
     * A renewal of the stored login failed for a passing reason: the login
     * stays (refresh token, user, UI) and the renewal is retried.
     */
    renewalFailed(state, action: PayloadAction<RenewalProblem>) {
      state.renewalProblem = action.payload;
      if (state.status === 'restoring') state.status = 'reconnecting';
    },
    /** The member agreed to the 利用規約 in force (/user/acceptTerms answered). */
    termsAgreed(state) {
      if (state.user && state.user.type !== 'BUYER')
        state.user = { ...state.user, termsAccepted: true };
    },
    /** The browser's `online` / `offline` events. */
    connectivityChanged(state, action: PayloadAction<boolean>) {
      state.browserOnline = action.payload;
    },
    /** The session could not be kept. */
    tokenCleared(state) {
      empty(state, 'anonymous');
    },
    loggedOut(state) {
      empty(state, 'loggedOut');
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionExpired, (state) => empty(state, 'anonymous'));
  },
  selectors: {
    selectAuthUser: (state) => state.user,
    selectAuthStatus: (state) => state.status,
    selectIsLoggedIn: (state) => state.status === 'authenticated',
    /**
     * Whether this device holds a login, confirmed or not yet: the header
     * shows マイページ and nothing offers the login form as if logged out.
     */
    selectHoldsLogin: (state) =>
      state.status === 'authenticated' ||
      state.status === 'restoring' ||
      state.status === 'reconnecting',
    /** What the connection notice says: offline, server unavailable, or nothing. */
    selectConnectionProblem: (state): RenewalProblem | null =>
      state.browserOnline ? state.renewalProblem : 'offline',
  },
});

export const {
  tokenReceived,
  tokenRefreshed,
  renewalFailed,
  connectivityChanged,
  termsAgreed,
  tokenCleared,
  loggedOut,
} = authSlice.actions;
export const {
  selectAuthUser,
  selectAuthStatus,
  selectIsLoggedIn,
  selectHoldsLogin,
  selectConnectionProblem,
} = authSlice.selectors;

/**
 * Whether the logged-in member must agree to the 利用規約 in force before the
 * member area (never agreed, or an older version). Buyers are not asked.
 */
export const selectNeedsTermsAgreement = (state: {
  auth: AuthState;
}): boolean =>
  state.auth.status === 'authenticated' &&
  state.auth.user !== null &&
  state.auth.user.type !== 'BUYER' &&
  'termsAccepted' in state.auth.user &&
  state.auth.user.termsAccepted === false;

/** Whether the logged-in person is company staff (`type: 'admin'`). */
export const selectIsAdmin = (state: { auth: AuthState }): boolean =>
  state.auth.status === 'authenticated' && state.auth.user?.type === 'admin';

/**
 * Keeps storage in step with the session: every token the server hands out
 * is written; a member's token removes any check-in record (it belonged to a
 * buyer session that is over); every way out of the session removes both.
 */
export const authStorageListener = createListenerMiddleware();
authStorageListener.startListening({
  actionCreator: tokenReceived,
  effect: ({ payload }) => {
    writeRefreshToken(payload.token.refreshToken);
    if (!isBuyerLogin(payload)) removeCheckinRecord();
  },
});
authStorageListener.startListening({
  actionCreator: tokenRefreshed,
  effect: ({ payload }) => {
    writeRefreshToken(payload.token.refreshToken);
    if (!payload.isBuyer) removeCheckinRecord();
  },
});
authStorageListener.startListening({
  matcher: isAnyOf(tokenCleared, loggedOut, sessionExpired),
  effect: () => {
    removeRefreshToken();
    removeCheckinRecord();
  },
});
