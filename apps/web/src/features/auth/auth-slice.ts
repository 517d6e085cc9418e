import {
  createListenerMiddleware,
  createSlice,
  isAnyOf,
  type PayloadAction,
} from '@reduxjs/toolkit';
import type { AuthUser, LoginResult, Token } from '@proam/contract';
import { sessionExpired } from '@/lib/api';
import { readJwtExp } from './access-token';
import { buyerFromCheckin, parseCheckin, type BuyerUser } from './checkin-data';
import {
  readCheckinRaw,
  readRefreshToken,
  removeRefreshToken,
  writeRefreshToken,
} from './token-storage';

export type SessionUser = AuthUser | BuyerUser;

/**
 * `restoring`: a stored refresh token is being exchanged at startup;
 * `loggedOut`: the person logged out themself (no way back to a tab).
 */
export type AuthStatus =
  'restoring' | 'authenticated' | 'anonymous' | 'loggedOut';

export type AuthState = {
  user: SessionUser | null;
  /** In memory only, never in storage. */
  accessToken: string | null;
  /** The access token's `exp` in seconds, read from its payload. */
  accessTokenExp: number | null;
  /** Server clock minus the device clock, learnt at the handshake. */
  serverOffsetMs: number;
  status: AuthStatus;
};

type RefreshPayload = {
  token: Token;
  user: AuthUser;
  /** Set when a check-in record is in storage: it replaces the user. */
  buyer: BuyerUser | null;
  serverOffsetMs: number | null;
};

const initialAuthState = (): AuthState => ({
  user: null,
  accessToken: null,
  accessTokenExp: null,
  serverOffsetMs: 0,
  status: readRefreshToken() ? 'restoring' : 'anonymous',
});

const storeToken = (state: AuthState, token: Token) => {
  state.accessToken = token.accessToken;
  state.accessTokenExp = readJwtExp(token.accessToken);
  state.status = 'authenticated';
};

const empty = (state: AuthState, status: AuthStatus) => {
  state.user = null;
  state.accessToken = null;
  state.accessTokenExp = null;
  state.status = status;
};

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** Login or registration answered with a token. */
    tokenReceived(state, action: PayloadAction<LoginResult>) {
      storeToken(state, action.payload.token);
      state.user = action.payload.user;
    },
    /** A refresh or the startup handshake rotated the token. */
    tokenRefreshed: {
      reducer(state, action: PayloadAction<RefreshPayload>) {
        const { token, user, buyer, serverOffsetMs } = action.payload;
        storeToken(state, token);
        state.user = buyer ?? user;
        if (serverOffsetMs !== null) state.serverOffsetMs = serverOffsetMs;
      },
      // Storage and the clock are read here so the reducer stays pure.
      prepare(result: LoginResult & { serverTime?: string }) {
        const serverMs = result.serverTime
          ? Date.parse(result.serverTime)
          : NaN;
        return {
          payload: {
            token: result.token,
            user: result.user,
            buyer: buyerFromCheckin(parseCheckin(readCheckinRaw())),
            serverOffsetMs: Number.isNaN(serverMs)
              ? null
              : serverMs - Date.now(),
          },
        };
      },
    },
    /** The session could not be kept (a failed refresh). */
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
  },
});

export const { tokenReceived, tokenRefreshed, tokenCleared, loggedOut } =
  authSlice.actions;
export const { selectAuthUser, selectAuthStatus, selectIsLoggedIn } =
  authSlice.selectors;

/**
 * Keeps the stored refresh token in step with the session: every token the
 * server hands out is written, every way out of the session removes it.
 */
export const authStorageListener = createListenerMiddleware();
for (const actionCreator of [tokenReceived, tokenRefreshed]) {
  authStorageListener.startListening({
    actionCreator,
    effect: (action) => {
      writeRefreshToken(action.payload.token.refreshToken);
    },
  });
}
authStorageListener.startListening({
  matcher: isAnyOf(tokenCleared, loggedOut, sessionExpired),
  effect: () => {
    removeRefreshToken();
  },
});
