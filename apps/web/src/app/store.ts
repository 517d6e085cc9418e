import {
  combineSlices,
  configureStore,
  createListenerMiddleware,
  isAnyOf,
} from '@reduxjs/toolkit';
import { isProduction } from '@/config/env';
import { authHooks } from '@/features/auth/auth-session';
import {
  authSlice,
  authStorageListener,
  loggedOut,
} from '@/features/auth/auth-slice';
import { api, registerAuthHooks, sessionExpired } from '@/lib/api';
import { uiSlice } from '@/lib/ui-slice';

/**
 * One home for each piece of data. Slices hold client state only (`ui`: the
 * spinner and alerts; `auth`: the seed's authentication entry, i.e. user,
 * tokens and session state). Server data lives in the RTK Query cache (`api`),
 * one entry per call and argument, and no slice copies it. The seed's other
 * slices map to the cache so:
 *
 * | seed slice  | cache entries now                         | the seed's operations                     |
 * | ----------- | ----------------------------------------- | ----------------------------------------- |
 * | user        | profileApi `getUser(id)`,                 | retrieve = the query; update and photo    |
 * |             | `getUsersByIdList(ids)`; scheduleApi      | order upsert `getUser`; deleting a photo  |
 * |             | `getLessonMembers(ids)`; likesApi         | invalidates `User`; clear = the entry     |
 * |             | `searchPros` (infinite), `getNewAmateurs` | expires                                   |
 * | like        | likesApi `getGivenLikes({ userType,       | likeCount = its length; like and unlike   |
 * |             | userId })`; received: `getLikeCount`,     | patch it at once and roll back on         |
 * |             | `getLikedBy`                              | failure (`Like` tag)                      |
 * | schedule    | scheduleApi `getActiveSchedules`,         | loading replaces the entry; create,       |
 * |             | `getSchedulesByDate`, `getSchedulesById`  | update, updateRound, reserve, cancel and  |
 * |             |                                           | delete invalidate `Schedule`              |
 * | chat        | chatApi `getMessages(partitionKey)`       | infinite: newest page first, もっと見る   |
 * |             | (the conversation); `getChatLessons`      | fetches the next older page; sending, the |
 * |             | (the list), `getUnread` (the tab's        | socket and a reconnect's catch-up write   |
 * |             | count)                                    | into the cache (chat-api.ts)              |
 * | competition | competitionsApi `getCompetitions`         | a read replaces the entry (`Competition`) |
 * | news        | newsApi `getNewsList`, `getNews(id)`;     | `News` tag                                |
 * |             | adminApi `getAdminNewsPages` (infinite)   |                                           |
 */
const rootReducer = combineSlices(uiSlice, authSlice, api);

// lib/api.ts knows nothing of tokens; the auth feature plugs them in here.
registerAuthHooks(authHooks);

export type RootState = ReturnType<typeof rootReducer>;

/**
 * A login's server data ends with it: on a shared device the next person must
 * not find the last member's profiles, lessons or messages in the cache.
 */
export const sessionEndListener = createListenerMiddleware();
sessionEndListener.startListening({
  matcher: isAnyOf(loggedOut, sessionExpired),
  // After the current turn: the call that reported the end of the login must
  // settle with its own answer (InvalidRefreshToken) before the cache goes.
  effect: async (_action, { dispatch, delay }) => {
    await delay(0);
    dispatch(api.util.resetApiState());
  },
});

export const makeStore = (preloadedState?: Partial<RootState>) =>
  configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault()
        .prepend(authStorageListener.middleware, sessionEndListener.middleware)
        .concat(api.middleware),
    // The seed keeps 25 entries of history and no developer tooling in production.
    devTools: isProduction ? false : { maxAge: 25 },
  });

/**
 * The state the build rendered prerendered HTML with, for a store that
 * started as `state`: the same, but the build knew of no connection problem
 * (a browser that starts offline shows a notice the HTML does not have).
 * boot/start-app.ts hydrates from it.
 */
export const asPrerendered = (state: RootState): RootState => ({
  ...state,
  auth: { ...state.auth, browserOnline: true },
});

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
