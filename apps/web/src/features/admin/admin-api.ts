import type {
  AdminStats,
  AdminUsersInput,
  News,
  Refund,
  Report,
  ReportContext,
  User,
} from '@proam/contract';
import { api, numberedPages, postArg, type ApiRequest } from '@/lib/api';

/** Rows a page of /admin/reports holds (the API's default; at most 100). */
export const REPORT_PAGE_SIZE = 50;
/** Rows a page of /news/adminList holds (the API's default; at most 100). */
export const ADMIN_NEWS_PAGE_SIZE = 50;
/** The most report ids one /admin/reportContexts call takes. */
const CONTEXT_IDS_MAX = 100;

/** The admins' member list: a tag apart from each member's own `User` tag. */
const ADMIN_LIST = { type: 'User', id: 'ADMIN-LIST' } as const;

/** A member's change shows in the admins' list and in their profile. */
const memberChanged = (_r: unknown, _e: unknown, { id }: { id: string }) => [
  ADMIN_LIST,
  { type: 'User' as const, id },
];

/** Member management, 通報 and the dashboard's figures (admins only). */
export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** /admin/users: members with e-mail, by type, verification and keyword. */
    getAdminUsers: build.query<User[], AdminUsersInput>({
      query: postArg('/admin/users'),
      providesTags: [ADMIN_LIST],
    }),
    /** 確認済みにする / 確認を取り消す: the pro is mailed. */
    verifyPro: build.mutation<User, { id: string; verified: boolean }>({
      query: postArg('/admin/verifyPro'),
      invalidatesTags: memberChanged,
    }),
    /**
     * 利用停止 / 停止を解除. Silent: the dialog explains a failure itself and
     * keeps the reason typed.
     */
    suspendMember: build.mutation<
      User,
      { id: string; suspended: boolean; reason?: string }
    >({
      query: postArg('/admin/suspend', { silent: true }),
      invalidatesTags: memberChanged,
    }),
    /** 通報, newest first, a page at a time. */
    getReports: build.infiniteQuery<
      Report[],
      { status?: 'open' | 'resolved' },
      number
    >({
      infiniteQueryOptions: numberedPages(REPORT_PAGE_SIZE),
      query: ({ queryArg, pageParam }) => ({
        path: '/admin/reports',
        body: { ...queryArg, page: pageParam, size: REPORT_PAGE_SIZE },
      }),
      providesTags: ['Report'],
    }),
    /**
     * Who reported, and what the reported profile, review or message says,
     * for every report loaded (asked 100 at a time, the API's limit).
     */
    getReportContexts: build.query<ReportContext[], string[]>({
      queryFn: async (ids, _api, _extra, baseQuery) => {
        const found: ReportContext[] = [];
        for (let i = 0; i < ids.length; i += CONTEXT_IDS_MAX) {
          const result = await baseQuery({
            path: '/admin/reportContexts',
            body: { ids: ids.slice(i, i + CONTEXT_IDS_MAX) },
          } satisfies ApiRequest);
          if (result.error) return { error: result.error };
          found.push(...(result.data as ReportContext[]));
        }
        return { data: found };
      },
      providesTags: ['Report'],
    }),
    /** 対応済みにする, with what was done (silent: the dialog says why it failed). */
    resolveReport: build.mutation<Report, { id: string; resolution: string }>({
      query: postArg('/admin/reportResolve', { silent: true }),
      invalidatesTags: ['Report'],
    }),
    /**
     * お知らせ (admins): every item, scheduled ones included, newest first, a
     * page at a time (`News`: any change reads it again).
     */
    getAdminNewsPages: build.infiniteQuery<News[], void, number>({
      infiniteQueryOptions: numberedPages(ADMIN_NEWS_PAGE_SIZE),
      query: ({ pageParam }) => ({
        path: '/news/adminList',
        body: { page: pageParam, size: ADMIN_NEWS_PAGE_SIZE },
      }),
      providesTags: ['News'],
    }),
    /**
     * 返金's 再試行: a stuck refund goes back to the worker at once. Silent:
     * the list says why it failed (a 409 when it was refunded meanwhile).
     * (payment-records-api's `retryRefund` is the same call with the alert.)
     */
    adminRetryRefund: build.mutation<Refund, { id: string }>({
      query: postArg('/payment/refundRetry', { silent: true }),
      invalidatesTags: ['Refund'],
    }),
    /** The 運営ダッシュボード's weekly figures. */
    getAdminStats: build.query<AdminStats, { weeks?: number }>({
      query: postArg('/admin/stats'),
    }),
  }),
});

export const {
  useGetAdminUsersQuery,
  useVerifyProMutation,
  useSuspendMemberMutation,
  useGetReportsInfiniteQuery,
  useGetReportContextsQuery,
  useResolveReportMutation,
  useGetAdminNewsPagesInfiniteQuery,
  useAdminRetryRefundMutation,
  useGetAdminStatsQuery,
} = adminApi;
