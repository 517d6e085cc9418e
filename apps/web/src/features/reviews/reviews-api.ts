import type {
  Review,
  ReviewCreateInput,
  ReviewUpdateInput,
} from '@proam/contract';
import { api, numberedPages, postArg, type ApiRequest } from '@/lib/api';

export const REVIEW_PAGE_SIZE = 10;
/** The API's largest page (ReviewListInputSchema), for finding one's own review. */
const FIND_PAGE_SIZE = 50;

export type MyReviewArg = {
  proId: string;
  scheduleId: string;
  userId: string;
  /** The lesson's date: a review of it cannot be older than that day. */
  lessonDate: string;
};

/** 00:00 Japan time of `ymd`, as an instant comparable with `createdAt`. */
const startOfJapanDay = (ymd: string) =>
  new Date(`${ymd}T00:00:00+09:00`).toISOString();

/**
 * 口コミ (docs/api.md, Wave 2). A change of a review also moves the pro's ★
 * average and count, so `User` is invalidated.
 */
export const reviewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A pro's reviews, newest first, a page at a time (もっと見る). */
    getReviews: build.infiniteQuery<Review[], string, number>({
      infiniteQueryOptions: numberedPages(REVIEW_PAGE_SIZE),
      query: ({ queryArg: proId, pageParam }) => ({
        path: '/review/list',
        body: { proId, page: pageParam, size: REVIEW_PAGE_SIZE },
      }),
      providesTags: ['Review'],
    }),
    /**
     * The member's own review of one lesson, or null. The API has no
     * "my reviews" call, so this reads the pro's reviews (newest first)
     * until it finds it, or until the reviews are older than the lesson's
     * day (a review of the lesson cannot be older): nearly always one page.
     */
    getMyReview: build.query<Review | null, MyReviewArg>({
      queryFn: async (arg, _api, _extra, baseQuery) => {
        const since = startOfJapanDay(arg.lessonDate);
        for (let page = 1; ; page++) {
          const result = await baseQuery({
            path: '/review/list',
            body: { proId: arg.proId, page, size: FIND_PAGE_SIZE },
            silent: true,
          } satisfies ApiRequest);
          if (result.error) return { error: result.error };
          const reviews = result.data as Review[];
          const mine = reviews.find(
            (r) => r.scheduleId === arg.scheduleId && r.userId === arg.userId,
          );
          if (mine) return { data: mine };
          const oldest = reviews.at(-1);
          if (
            reviews.length < FIND_PAGE_SIZE ||
            !oldest ||
            oldest.createdAt < since
          )
            return { data: null };
        }
      },
      providesTags: ['Review'],
    }),
    /** Silent: the dialog shows the failure and keeps what was typed. */
    createReview: build.mutation<Review, ReviewCreateInput>({
      query: postArg('/review/create', { silent: true }),
      invalidatesTags: ['Review', 'User'],
    }),
    updateReview: build.mutation<Review, ReviewUpdateInput>({
      query: postArg('/review/update', { silent: true }),
      invalidatesTags: ['Review', 'User'],
    }),
    deleteReview: build.mutation<{ deletedCount: number }, { id: string }>({
      query: postArg('/review/delete'),
      invalidatesTags: ['Review', 'User'],
    }),
    /**
     * The reviewed pro answers; a new reply replaces the old one. The saved
     * reply goes into the pro's list at once, so the screen can move the
     * focus to it without waiting for the list to be read again.
     */
    replyToReview: build.mutation<Review, { id: string; reply: string }>({
      query: postArg('/review/reply', { silent: true }),
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        try {
          const { data: saved } = await queryFulfilled;
          dispatch(
            reviewsApi.util.updateQueryData('getReviews', saved.proId, (d) => {
              for (const page of d.pages)
                for (const r of page)
                  if (r.id === saved.id) r.reply = saved.reply;
            }),
          );
        } catch {
          // Not saved: the form says so and keeps the text.
        }
      },
      invalidatesTags: ['Review'],
    }),
  }),
});

export const {
  useGetReviewsInfiniteQuery,
  useGetMyReviewQuery,
  useCreateReviewMutation,
  useUpdateReviewMutation,
  useDeleteReviewMutation,
  useReplyToReviewMutation,
} = reviewsApi;
