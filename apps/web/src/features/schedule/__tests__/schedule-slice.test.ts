import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Schedule } from '@proam/contract';
import { makeStore } from '@/app/store';
import { okEnvelope } from '@/testing/render';
import { scheduleApi } from '../schedule-api';
import { schedulesCleared, selectAllSchedules } from '../schedule-slice';

const lesson = (id: string, over: Partial<Schedule> = {}): Schedule => ({
  id,
  proId: 'pro-1',
  date: '2026-11-28',
  startTime: '09:00',
  endTime: '14:00',
  place: '府中カントリークラブ',
  capacity: 3,
  fee: 20000,
  statusRound: 'open',
  reservedCount: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

/** Answers each path with the next body queued for it. */
const answer = (bodies: Record<string, unknown[]>) => {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const path = new URL((input as Request).url).pathname.replace(
        /^\/api/,
        '',
      );
      const queue = bodies[path] ?? [];
      return okEnvelope(queue.length > 1 ? queue.shift() : queue[0]);
    }),
  );
};

afterEach(() => vi.unstubAllGlobals());

const ids = (store: ReturnType<typeof makeStore>) =>
  selectAllSchedules(store.getState()).map((s) => s.id);

describe('schedule slice', () => {
  it('replaces all entries when loading by active or by date', async () => {
    const store = makeStore();
    answer({
      '/schedule/getActive': [
        [lesson('a'), lesson('b', { date: '2026-11-24' })],
      ],
      '/schedule/getByDate': [[lesson('c')]],
    });
    await store.dispatch(
      scheduleApi.endpoints.getActiveSchedules.initiate({ userId: 'u' }),
    );
    // Sorted by date, then start time.
    expect(ids(store)).toEqual(['b', 'a']);
    await store.dispatch(
      scheduleApi.endpoints.getSchedulesByDate.initiate({
        userId: 'u',
        date: '2026-11-28',
      }),
    );
    expect(ids(store)).toEqual(['c']);
  });

  it('adds a created lesson, modifies an updated one, and clears all', async () => {
    const store = makeStore();
    answer({
      '/schedule/getActive': [[lesson('a')]],
      '/schedule/create': [
        lesson('n', { startTime: '15:00', endTime: '17:00' }),
      ],
      '/schedule/update': [lesson('a', { fee: 25000, statusRound: 'closed' })],
      '/schedule/reserve': [
        lesson('a', { fee: 25000, statusRound: 'closed', reservedCount: 1 }),
      ],
    });
    await store.dispatch(
      scheduleApi.endpoints.getActiveSchedules.initiate({ userId: 'u' }),
    );
    const input = {
      date: '2026-11-28',
      startTime: '15:00',
      endTime: '17:00',
      place: 'x',
      capacity: 2,
      fee: 1000,
    };
    await store.dispatch(scheduleApi.endpoints.createSchedule.initiate(input));
    expect(ids(store)).toEqual(['a', 'n']);
    await store.dispatch(
      scheduleApi.endpoints.updateSchedule.initiate({ id: 'a', fee: 25000 }),
    );
    const a = selectAllSchedules(store.getState())[0];
    expect(a).toMatchObject({ id: 'a', fee: 25000, statusRound: 'closed' });
    await store.dispatch(
      scheduleApi.endpoints.reserveSchedule.initiate({ id: 'a' }),
    );
    expect(selectAllSchedules(store.getState())[0]?.reservedCount).toBe(1);
    store.dispatch(schedulesCleared());
    expect(ids(store)).toEqual([]);
  });
});
