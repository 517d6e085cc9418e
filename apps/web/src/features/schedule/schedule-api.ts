import type {
  CallOffInput,
  Schedule,
  ScheduleCreateInput,
  ScheduleUpdateInput,
  StatusRound,
  User,
} from '@proam/contract';
import { api } from '@/lib/api';

type UserArg = { userId: string };

/**
 * The lesson calls of docs/api.md (Schedules). Every change invalidates the
 * lists, so the calendar, the reservations and a pro's page stay in step.
 */
export const scheduleApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every lesson of a pro, or every lesson a member takes part in. */
    getSchedulesById: build.query<Schedule[], UserArg>({
      query: (body) => ({ path: '/schedule/getById', body }),
      providesTags: ['Schedule'],
    }),
    /** From today (Japan time), not done or cancelled. */
    getActiveSchedules: build.query<Schedule[], UserArg>({
      query: (body) => ({ path: '/schedule/getActive', body }),
      providesTags: ['Schedule'],
    }),
    getSchedulesByDate: build.query<Schedule[], UserArg & { date: string }>({
      query: (body) => ({ path: '/schedule/getByDate', body }),
      providesTags: ['Schedule'],
    }),
    /** The form reports its own failures (field errors, the overlap message). */
    createSchedule: build.mutation<Schedule, ScheduleCreateInput>({
      query: (body) => ({ path: '/schedule/create', body, silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    updateSchedule: build.mutation<Schedule, ScheduleUpdateInput>({
      query: (body) => ({ path: '/schedule/update', body, silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    updateRound: build.mutation<
      { updatedCount: number },
      { proId: string; date: string; statusRound: StatusRound }
    >({
      query: (body) => ({ path: '/schedule/updateRound', body }),
      invalidatesTags: ['Schedule'],
    }),
    /** Silent: a Conflict (it has reservations) is answered on the page. */
    deleteSchedule: build.mutation<{ deletedCount: number }, { id: string }>({
      query: (body) => ({ path: '/schedule/delete', body, silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    reserveSchedule: build.mutation<Schedule, { id: string }>({
      query: (body) => ({ path: '/schedule/reserve', body }),
      // A full lesson answers ScheduleFull: the list is refetched either way.
      invalidatesTags: ['Schedule'],
    }),
    /**
     * Silent: CancelClosed (the deadline passed, e.g. at midnight) is shown on
     * the lesson's card; the caller raises the エラー alert for anything else.
     */
    cancelReservation: build.mutation<Schedule, { id: string }>({
      query: (body) => ({ path: '/schedule/cancel', body, silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    /** Silent: the reason dialog shows the failure and keeps the text. */
    callOffSchedule: build.mutation<Schedule, CallOffInput>({
      query: (body) => ({ path: '/schedule/callOff', body, silent: true }),
      // The participants are mailed: an admin's outbox counts change too.
      invalidatesTags: ['Schedule', 'MailOutbox'],
    }),
    /** キャンセル待ち on a full lesson; joining twice keeps the first place. */
    joinWaitlist: build.mutation<{ position: number }, { id: string }>({
      query: (body) => ({ path: '/schedule/waitlistJoin', body }),
      invalidatesTags: ['Schedule'],
    }),
    leaveWaitlist: build.mutation<{ left: true }, { id: string }>({
      query: (body) => ({ path: '/schedule/waitlistLeave', body }),
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
