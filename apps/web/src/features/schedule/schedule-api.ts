import type {
  CallOffInput,
  Schedule,
  ScheduleCreateInput,
  ScheduleUpdateInput,
  StatusRound,
  User,
} from '@proam/contract';
import { api, postArg } from '@/lib/api';

type UserArg = { userId: string };

/**
 * The lesson calls of docs/api.md (Schedules). Every change invalidates the
 * lists, so the calendar, the reservations and a pro's page stay in step.
 */
export const scheduleApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every lesson of a pro, or every lesson a member takes part in. */
    getSchedulesById: build.query<Schedule[], UserArg>({
      query: postArg('/schedule/getById'),
      providesTags: ['Schedule'],
    }),
    /** From today (Japan time), not done or cancelled. */
    getActiveSchedules: build.query<Schedule[], UserArg>({
      query: postArg('/schedule/getActive'),
      providesTags: ['Schedule'],
    }),
    getSchedulesByDate: build.query<Schedule[], UserArg & { date: string }>({
      query: postArg('/schedule/getByDate'),
      providesTags: ['Schedule'],
    }),
    /** The form reports its own failures (field errors, the overlap message). */
    createSchedule: build.mutation<Schedule, ScheduleCreateInput>({
      query: postArg('/schedule/create', { silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    updateSchedule: build.mutation<Schedule, ScheduleUpdateInput>({
      query: postArg('/schedule/update', { silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    updateRound: build.mutation<
      { updatedCount: number },
      { proId: string; date: string; statusRound: StatusRound }
    >({
      query: postArg('/schedule/updateRound'),
      invalidatesTags: ['Schedule'],
    }),
    /** Silent: a Conflict (it has reservations) is answered on the page. */
    deleteSchedule: build.mutation<{ deletedCount: number }, { id: string }>({
      query: postArg('/schedule/delete', { silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    reserveSchedule: build.mutation<Schedule, { id: string }>({
      query: postArg('/schedule/reserve'),
      // A full lesson answers ScheduleFull: the list is refetched either way.
      invalidatesTags: ['Schedule'],
    }),
    /**
     * Silent: CancelClosed (the deadline passed, e.g. at midnight) is shown on
     * the lesson's card; the caller raises the エラー alert for anything else.
     */
    cancelReservation: build.mutation<Schedule, { id: string }>({
      query: postArg('/schedule/cancel', { silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    /** Silent: the reason dialog shows the failure and keeps the text. */
    callOffSchedule: build.mutation<Schedule, CallOffInput>({
      query: postArg('/schedule/callOff', { silent: true }),
      // The participants are mailed: an admin's outbox counts change too.
      invalidatesTags: ['Schedule', 'MailOutbox'],
    }),
    /** キャンセル待ち on a full lesson; joining twice keeps the first place. */
    joinWaitlist: build.mutation<{ position: number }, { id: string }>({
      query: postArg('/schedule/waitlistJoin'),
      invalidatesTags: ['Schedule'],
    }),
    leaveWaitlist: build.mutation<{ left: true }, { id: string }>({
      query: postArg('/schedule/waitlistLeave'),
      invalidatesTags: ['Schedule'],
    }),
    /** Names and photos of pros and chat members, in the order asked. */
    getLessonMembers: build.query<User[], string[]>({
      query: (idList) => ({ path: '/user/getByIdList', body: { idList } }),
      providesTags: ['LessonMember'],
    }),
  }),
});

export const {
  useGetSchedulesByIdQuery,
  useGetActiveSchedulesQuery,
  useGetSchedulesByDateQuery,
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
  useUpdateRoundMutation,
  useDeleteScheduleMutation,
  useReserveScheduleMutation,
  useCancelReservationMutation,
  useCallOffScheduleMutation,
  useJoinWaitlistMutation,
  useLeaveWaitlistMutation,
  useGetLessonMembersQuery,
} = scheduleApi;
