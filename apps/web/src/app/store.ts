import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { isProduction } from '@/config/env';
import { api } from '@/lib/api';
import { uiSlice } from '@/lib/ui-slice';

const rootReducer = combineSlices(uiSlice, api);

export type RootState = ReturnType<typeof rootReducer>;

export const makeStore = (preloadedState?: Partial<RootState>) =>
  configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(api.middleware),
    // The seed keeps 25 entries of history and no developer tooling in production.
    devTools: isProduction ? false : { maxAge: 25 },
  });

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
