import { createEntityAdapter, createSlice, isAnyOf } from '@reduxjs/toolkit';
import type { Schedule } from '@proam/contract';
import { sessionExpired } from '@/lib/api';
import { loggedOut } from '@/features/auth/auth-slice';
import { scheduleApi } from './schedule-api';

const byDateAndTime = (a: Schedule, b: Schedule) =>
  a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime);

export const schedulesAdapter = createEntityAdapter<Schedule>({
  sortComparer: byDateAndTime,
});

const { endpoints } = scheduleApi;

/**
 * The lessons last loaded, by id (spec/PRODUCT.md, Client state): loading by
 * active or by date replaces all, create adds, update (also a reservation or
 * its cancellation) modifies, clear removes all.
 */
export const scheduleSlice = createSlice({
  name: 'schedule',
  initialState: schedulesAdapter.getInitialState(),
  reducers: {
    schedulesCleared: (state) => schedulesAdapter.removeAll(state),
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionExpired, (state) => schedulesAdapter.removeAll(state))
      .addCase(loggedOut, (state) => schedulesAdapter.removeAll(state))
      .addMatcher(
        isAnyOf(
          endpoints.getActiveSchedules.matchFulfilled,
          endpoints.getSchedulesByDate.matchFulfilled,
        ),
        (state, action) => schedulesAdapter.setAll(state, action.payload),
      )
      .addMatcher(endpoints.createSchedule.matchFulfilled, (state, action) =>
        schedulesAdapter.addOne(state, action.payload),
      )
      .addMatcher(
        isAnyOf(
          endpoints.updateSchedule.matchFulfilled,
          endpoints.reserveSchedule.matchFulfilled,
          endpoints.cancelReservation.matchFulfilled,
        ),
        (state, action) => {
          const { id, ...changes } = action.payload;
          schedulesAdapter.updateOne(state, { id, changes });
        },
      )
      .addMatcher(endpoints.deleteSchedule.matchFulfilled, (state, action) =>
        schedulesAdapter.removeOne(state, action.meta.arg.originalArgs.id),
      );
  },
});

export const { schedulesCleared } = scheduleSlice.actions;

export const { selectAll: selectAllSchedules, selectById: selectScheduleById } =
  schedulesAdapter.getSelectors(
    (state: { schedule: ReturnType<typeof scheduleSlice.reducer> }) =>
      state.schedule,
  );
