import type { Like, ProConditionInput, User } from '@proam/contract';
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import {
  api,
  numberedPages,
  postArg,
  settleOptimistic,
  type ApiRequest,
} from '@/lib/api';
import { profileApi } from '@/features/profile/profile-api';

export type MemberType = 'pro' | 'amature';
export type LikeQuery = { userType: MemberType; userId: string };
export type LikePair = {
  userId: string;
  likeUserId: string;
  /** The type of the person liking, to find their cached list of likes. */
  userType: MemberType;
};
export type ProSearch = Omit<ProConditionInput, 'page' | 'size'>;

export const SEARCH_PAGE_SIZE = 12;

/** Runs the cache-patching thunks of both injected APIs. */
type Dispatch = <R>(thunk: ThunkAction<R, never, unknown, UnknownAction>) => R;
type Undo = { undo: () => void };

/**
 * Changes the like count shown for `userId` in every cached list and profile
 * at once; the returned patches undo it.
 */
const patchLikeCount = (
  dispatch: Dispatch,
  getState: () => unknown,
  userId: string,
  delta: number,
): Undo[] => {
  type LikesState = Parameters<
    typeof likesApi.util.selectCachedArgsForQuery
  >[0];
  type ProfileState = Parameters<
    typeof profileApi.util.selectCachedArgsForQuery
  >[0];
  const state = getState() as LikesState & ProfileState;
  const bump = (u: User) => {
    if (u.id === userId) u.likeCount = Math.max(0, u.likeCount + delta);
  };
  const patches: Undo[] = [];
  for (const arg of likesApi.util.selectCachedArgsForQuery(state, 'searchPros'))
    patches.push(
      dispatch(
        likesApi.util.updateQueryData('searchPros', arg, (draft) => {
          draft.pages.forEach((p) => p.forEach(bump));
        }),
      ),
    );
  for (const arg of likesApi.util.selectCachedArgsForQuery(
    state,
    'getNewAmateurs',
  ))
    patches.push(
      dispatch(
        likesApi.util.updateQueryData('getNewAmateurs', arg, (draft) => {
          draft.forEach(bump);
        }),
      ),
    );
  for (const arg of profileApi.util.selectCachedArgsForQuery(
    state,
    'getUsersByIdList',
  ))
    if (arg.includes(userId))
      patches.push(
        dispatch(
          profileApi.util.updateQueryData('getUsersByIdList', arg, (draft) => {
            draft.forEach(bump);
          }),
        ),
      );
  patches.push(
    dispatch(
      profileApi.util.updateQueryData('getUser', userId, (draft) => {
        if (draft) bump(draft);
      }),
    ),
  );
  return patches;
};

/**
 * Liking and unliking send the pair; the liker's type only finds their
 * cached list.
 */
const pairRequest =
  (path: string) =>
  ({ userId, likeUserId }: LikePair): ApiRequest => ({
    path,
    body: { userId, likeUserId },
  });

/**
 * Likes (docs/api.md, Likes) and finding people to like. Liking and unliking
 * show at once and are rolled back when the server says no.
 */
export const likesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The likes `userId` has given, newest first (only oneself). */
    getGivenLikes: build.query<Like[], LikeQuery>({
      query: postArg('/user/like'),
      providesTags: ['Like'],
    }),
    /** How many likes `userId` has received. */
    getLikeCount: build.query<number, LikeQuery>({
      query: postArg('/user/likeCount'),
      providesTags: ['Like'],
    }),
    /** Who liked `userId` (beyond the seed), newest first (only oneself). */
    getLikedBy: build.query<Like[], string>({
      query: (userId) => ({ path: '/user/likedBy', body: { userId } }),
      providesTags: ['Like'],
    }),
    likeMember: build.mutation<Like, LikePair>({
      query: pairRequest('/user/likeCreate'),
      onQueryStarted: async (
        { userId, likeUserId, userType },
        { dispatch, getState, queryFulfilled },
      ) => {
        const tempId = `optimistic-${likeUserId}`;
        const listArg = { userType, userId };
        const listPatch = dispatch(
          likesApi.util.updateQueryData('getGivenLikes', listArg, (draft) => {
            if (!draft.some((l) => l.likeUserId === likeUserId))
              draft.unshift({
                likeId: tempId,
                userType,
                userId,
                likeUserId,
                createdAt: new Date().toISOString(),
              });
          }),
        );
        const added = listPatch.patches.length > 0;
        const countPatches = added
          ? patchLikeCount(dispatch, getState, likeUserId, 1)
          : [];
        await settleOptimistic(
          queryFulfilled,
          [listPatch, ...countPatches],
          (data) =>
            dispatch(
              likesApi.util.updateQueryData(
                'getGivenLikes',
                listArg,
                (draft) => {
                  const i = draft.findIndex((l) => l.likeId === tempId);
                  if (i >= 0) draft[i] = data;
                },
              ),
            ),
        );
      },
    }),
    unlikeMember: build.mutation<{ deletedCount: number }, LikePair>({
      query: pairRequest('/user/likeDelete'),
      onQueryStarted: async (
        { userId, likeUserId, userType },
        { dispatch, getState, queryFulfilled },
      ) => {
        const listPatch = dispatch(
          likesApi.util.updateQueryData(
            'getGivenLikes',
            { userType, userId },
            (draft) => draft.filter((l) => l.likeUserId !== likeUserId),
          ),
        );
        const countPatches = patchLikeCount(dispatch, getState, likeUserId, -1);
        await settleOptimistic(queryFulfilled, [listPatch, ...countPatches]);
      },
    }),
    /** `/users/pro/condition`, a page at a time (もっと見る). */
    searchPros: build.infiniteQuery<User[], ProSearch, number>({
      infiniteQueryOptions: numberedPages(SEARCH_PAGE_SIZE),
      query: ({ queryArg, pageParam }) => ({
        path: '/users/pro/condition',
        body: { ...queryArg, page: pageParam, size: SEARCH_PAGE_SIZE },
      }),
    }),
    /** Amateurs registered in the last 30 days (pros and admins only). */
    getNewAmateurs: build.query<User[], number>({
      query: (size) => ({ path: '/users/amature/newer', body: { size } }),
    }),
  }),
});

export const {
  useGetGivenLikesQuery,
  useGetLikeCountQuery,
  useGetLikedByQuery,
  useLikeMemberMutation,
  useUnlikeMemberMutation,
  useSearchProsInfiniteQuery,
  useGetNewAmateursQuery,
} = likesApi;
