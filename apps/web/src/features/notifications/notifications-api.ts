import type {
  MailOutboxSummary,
  NotificationSettings,
  NotificationSettingsUpdateInput,
} from '@proam/contract';
import { api, postArg, settleOptimistic } from '@/lib/api';

/**
 * Which mails a member gets (通知設定) and, for admins, how the mail outbox
 * is doing (docs/api.md, Wave 2: Notices by mail).
 */
export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotificationSettings: build.query<NotificationSettings, void>({
      query: () => ({ path: '/user/notificationSettings' }),
      providesTags: ['NotificationSettings'],
    }),
    /**
     * The switch moves at once (the cached settings are patched) and moves
     * back if the server refuses. Silent: the panel says what failed.
     */
    updateNotificationSettings: build.mutation<
      NotificationSettings,
      NotificationSettingsUpdateInput
    >({
      query: postArg('/user/notificationSettingsUpdate', { silent: true }),
      onQueryStarted: async (change, { dispatch, queryFulfilled }) => {
        const patch = dispatch(
          notificationsApi.util.updateQueryData(
            'getNotificationSettings',
            undefined,
            (draft) => {
              Object.assign(draft, change);
            },
          ),
        );
        await settleOptimistic(queryFulfilled, [patch], (data) => {
          // Only the keys this call changed: another switch may be in flight.
          dispatch(
            notificationsApi.util.updateQueryData(
              'getNotificationSettings',
              undefined,
              (draft) => {
                for (const key of Object.keys(
                  change,
                ) as (keyof typeof change)[])
                  draft[key] = data[key];
              },
            ),
          );
        });
      },
    }),
    /** Admins: mails queued, sent, skipped (turned off) and given up. */
    getMailOutbox: build.query<MailOutboxSummary, void>({
      query: () => ({ path: '/admin/mailOutbox' }),
      providesTags: ['MailOutbox'],
    }),
  }),
});

export const {
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
  useGetMailOutboxQuery,
} = notificationsApi;
