import type {
  AdminStats,
  AdminUsersInput,
  Report,
  ReportContext,
  User,
} from '@proam/contract';
import { api, postArg } from '@/lib/api';

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
    /** 通報, newest first. */
    getReports: build.query<
      Report[],
      { status?: 'open' | 'resolved'; page?: number; size?: number }
    >({
      query: postArg('/admin/reports'),
      providesTags: ['Report'],
    }),
    /** Who reported, and what the reported profile, review or message says. */
    getReportContexts: build.query<ReportContext[], string[]>({
      query: (ids) => ({ path: '/admin/reportContexts', body: { ids } }),
      providesTags: ['Report'],
    }),
    /** 対応済みにする, with what was done (silent: the dialog says why it failed). */
    resolveReport: build.mutation<Report, { id: string; resolution: string }>({
      query: postArg('/admin/reportResolve', { silent: true }),
      invalidatesTags: ['Report'],
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
  useGetReportsQuery,
  useGetReportContextsQuery,
  useResolveReportMutation,
  useGetAdminStatsQuery,
} = adminApi;
