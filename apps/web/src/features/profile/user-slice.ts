import {
  createEntityAdapter,
  createSlice,
  isAnyOf,
  type PayloadAction,
  type Update,
} from '@reduxjs/toolkit';
import type { User } from '@proam/contract';
import { loggedOut, tokenCleared } from '@/features/auth/auth-slice';
import { sessionExpired } from '@/lib/api';
import { profileApi } from './profile-api';

const usersAdapter = createEntityAdapter<User>();

/**
 * Every profile the app has retrieved, keyed by id (spec/PRODUCT.md, Client
 * state): retrieving inserts or updates, update modifies, clear removes all.
 */
export const userSlice = createSlice({
  name: 'user',
  initialState: usersAdapter.getInitialState(),
  reducers: {
    usersRetrieved(state, action: PayloadAction<readonly User[]>) {
      usersAdapter.upsertMany(state, action.payload);
    },
    userUpdated(state, action: PayloadAction<Update<User, string>>) {
      usersAdapter.updateOne(state, action.payload);
    },
    usersCleared(state) {
      usersAdapter.removeAll(state);
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(profileApi.endpoints.getUser.matchFulfilled, (state, a) => {
        if (a.payload) usersAdapter.upsertOne(state, a.payload);
      })
      .addMatcher(
        isAnyOf(
          profileApi.endpoints.updateUser.matchFulfilled,
          profileApi.endpoints.updateImageInfo.matchFulfilled,
        ),
        (state, a) => {
          usersAdapter.upsertOne(state, a.payload);
        },
      )
      .addMatcher(
        profileApi.endpoints.getUsersByIdList.matchFulfilled,
        (state, a) => {
          usersAdapter.upsertMany(state, a.payload);
        },
      )
      // Another person may log in next on this device.
      .addMatcher(isAnyOf(loggedOut, tokenCleared, sessionExpired), (state) => {
        usersAdapter.removeAll(state);
      });
  },
});

export const { usersRetrieved, userUpdated, usersCleared } = userSlice.actions;

export const {
  selectById: selectUserById,
  selectAll: selectAllUsers,
  selectTotal: selectUserTotal,
} = usersAdapter.getSelectors(
  (state: { [userSlice.reducerPath]: ReturnType<typeof userSlice.reducer> }) =>
    state[userSlice.reducerPath],
);
