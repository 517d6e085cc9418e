import {
  createEntityAdapter,
  createSlice,
  isAnyOf,
  type PayloadAction,
} from '@reduxjs/toolkit';
import type { Like } from '@proam/contract';
import { loggedOut, tokenCleared } from '@/features/auth/auth-slice';
import { sessionExpired } from '@/lib/api';
import { likesApi } from './likes-api';

const likesAdapter = createEntityAdapter<Like, string>({
  selectId: (like) => like.likeId,
});

type LikeState = ReturnType<typeof likesAdapter.getInitialState> & {
  likeCount: number;
};

const initialState: LikeState = likesAdapter.getInitialState({ likeCount: 0 });

/**
 * The likes the member has given (spec/PRODUCT.md, Client state): loading the
 * list sets `likeCount` to its length, creating adds 1, deleting subtracts 1.
 */
export const likeSlice = createSlice({
  name: 'like',
  initialState,
  reducers: {
    likesLoaded(state, action: PayloadAction<readonly Like[]>) {
      likesAdapter.setAll(state, action.payload);
      state.likeCount = action.payload.length;
    },
    likeAdded(state, action: PayloadAction<Like>) {
      // Liking is idempotent on the server: the same like twice counts once.
      if (state.entities[action.payload.likeId]) return;
      likesAdapter.addOne(state, action.payload);
      state.likeCount += 1;
    },
    /** By the liked person's id, which is what unliking names. */
    likeRemoved(state, action: PayloadAction<string>) {
      const like = Object.values(state.entities).find(
        (l) => l?.likeUserId === action.payload,
      );
      if (!like) return;
      likesAdapter.removeOne(state, like.likeId);
      state.likeCount = Math.max(0, state.likeCount - 1);
    },
    likesCleared(state) {
      likesAdapter.removeAll(state);
      state.likeCount = 0;
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(likesApi.endpoints.getGivenLikes.matchFulfilled, (state, a) =>
        likeSlice.caseReducers.likesLoaded(state, likesLoaded(a.payload)),
      )
      .addMatcher(likesApi.endpoints.likeMember.matchFulfilled, (state, a) =>
        likeSlice.caseReducers.likeAdded(state, likeAdded(a.payload)),
      )
      .addMatcher(likesApi.endpoints.unlikeMember.matchFulfilled, (state, a) =>
        likeSlice.caseReducers.likeRemoved(
          state,
          likeRemoved(a.meta.arg.originalArgs.likeUserId),
        ),
      )
      .addMatcher(isAnyOf(loggedOut, tokenCleared, sessionExpired), (state) =>
        likeSlice.caseReducers.likesCleared(state),
      );
  },
  selectors: {
    selectLikeCount: (state) => state.likeCount,
  },
});

export const { likesLoaded, likeAdded, likeRemoved, likesCleared } =
  likeSlice.actions;
export const { selectLikeCount } = likeSlice.selectors;
export const { selectAll: selectAllLikes } = likesAdapter.getSelectors(
  (state: { like: LikeState }) => state.like,
);
