import type { Report, ReportCreateInput } from '@proam/contract';
import { api, postArg } from '@/lib/api';

/**
 * Blocks and 通報 (docs/api.md, Wave 2). A block hides the two members from
 * each other's lists, so it invalidates the lists that show members too.
 */
export const moderationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The ids the caller blocked, newest first. */
    getBlocks: build.query<string[], void>({
      query: () => ({ path: '/user/blocks', body: {} }),
      providesTags: ['Block'],
    }),
    blockUser: build.mutation<string[], string>({
      // Silent: the dialog says what a refusal means (BlockToggle).
      query: (userId) => ({
        path: '/user/block',
        body: { userId },
        silent: true,
      }),
      invalidatesTags: ['Block', 'Like', 'Schedule', 'ChatList'],
    }),
    unblockUser: build.mutation<string[], string>({
      query: (userId) => ({ path: '/user/unblock', body: { userId } }),
      invalidatesTags: ['Block', 'Like', 'Schedule', 'ChatList'],
    }),
    /** Silent: the dialog shows the failure and keeps the reason. */
    createReport: build.mutation<Report, ReportCreateInput>({
      query: postArg('/report/create', { silent: true }),
    }),
  }),
});

export const {
  useGetBlocksQuery,
  useBlockUserMutation,
  useUnblockUserMutation,
  useCreateReportMutation,
} = moderationApi;
