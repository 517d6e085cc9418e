import type {
  AdminStats,
  AdminUsersInput,
  Report,
  ReportContext,
  User,
} from '@proam/contract';
import { api } from '@/lib/api';

/** Member management, 通報 and the dashboard's figures (admins only). */
export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** /admin/users: members with e-mail, by type, verification and keyword. */
    getAdminUsers: build.query<User[], AdminUsersInput>({
      query: (body) => ({ path: '/admin/users', body }),
      providesTags: [{ type: 'User', id: 'ADMIN-LIST' }],
    }),
    /** 確認済みにする / 確認を取り消す: the pro is mailed. */
    verifyPro: build.mutation<User, { id: string; verified: boolean }>({
      query: (body) => ({ path: '/admin/verifyPro', body }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'User', id: 'ADMIN-LIST' },
        { type: 'User', id },
      ],
    }),
    /**
     * 利用停止 / 停止を解除. Silent: the dialog explains a failure itself and
     * keeps the reason typed.
     */
    suspendMember: build.mutation<
      User,
      { id: string; suspended: boolean; reason?: string }
    >({
      query: (body) => ({ path: '/admin/suspend', body, silent: true }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'User', id: 'ADMIN-LIST' },
        { type: 'User', id },
      ],
    }),
    /** 通報, newest first. */
    getReports: build.query<
      Report[],
      { status?: 'open' | 'resolved'; page?: number; size?: number }
    >({
      query: (body) => ({ path: '/admin/reports', body }),
      providesTags: ['Report'],
    }),
    /** Who reported, and what the reported profile, review or message says. */
    getReportContexts: build.query<ReportContext[], string[]>({
      query: (ids) => ({ path: '/admin/reportContexts', body: { ids } }),
      providesTags: ['Report'],
    }),
    /** 対応済みにする, with what was done (silent: the dialog says why it failed). */
    resolveReport: build.mutation<Report, { id: string; resolution: string }>({
      query: (body) => ({ path: '/admin/reportResolve', body, silent: true }),
      invalidatesTags: ['Report'],
    }),
    /** The 運営ダッシュボード's weekly figures. */
    getAdminStats: build.query<AdminStats, { weeks?: number }>({
      query: (body) => ({ path: '/admin/stats', body }),
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
