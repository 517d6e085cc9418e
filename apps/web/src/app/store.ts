import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { isProduction } from '@/config/env';
import { authHooks } from '@/features/auth/auth-session';
import { authSlice, authStorageListener } from '@/features/auth/auth-slice';
import { chatSlice } from '@/features/chat/chat-slice';
import { likeSlice } from '@/features/likes/like-slice';
import { userSlice } from '@/features/profile/user-slice';
import { scheduleSlice } from '@/features/schedule/schedule-slice';
import { api, registerAuthHooks } from '@/lib/api';
import { uiSlice } from '@/lib/ui-slice';

const rootReducer = combineSlices(
  uiSlice,
  authSlice,
  api,
  userSlice,
  likeSlice,
  scheduleSlice,
  chatSlice,
);

// lib/api.ts knows nothing of tokens; the auth feature plugs them in here.
registerAuthHooks(authHooks);

export type RootState = ReturnType<typeof rootReducer>;

export const makeStore = (preloadedState?: Partial<RootState>) =>
  configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault()
        .prepend(authStorageListener.middleware)
        .concat(api.middleware),
    // The seed keeps 25 entries of history and no developer tooling in production.
    devTools: isProduction ? false : { maxAge: 25 },
  });

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
