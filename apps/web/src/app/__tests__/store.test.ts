import { describe, expect, it, vi } from 'vitest';
import { loggedOut } from '@/features/auth/auth-slice';
import { api, sessionExpired } from '@/lib/api';
import { makeStore } from '../store';

/** A cache entry as a finished query leaves it. */
const withCachedUser = () =>
  makeStore({
    api: {
      ...api.reducer(undefined, { type: 'init' }),
      queries: {
        'getUser("u1")': {
          status: 'fulfilled',
          endpointName: 'getUser',
          requestId: 'r1',
          originalArgs: 'u1',
          startedTimeStamp: 0,
          fulfilledTimeStamp: 1,
          data: { id: 'u1', userName: '山田 花子' },
        },
      },
    } as unknown as ReturnType<typeof api.reducer>,
  });

describe('the end of a login', () => {
  it.each([
    ['a logout', loggedOut()],
    ['an expired login', sessionExpired()],
  ])('empties the server-data cache after %s', async (_name, action) => {
    const store = withCachedUser();
    expect(Object.keys(store.getState().api.queries)).toHaveLength(1);
    store.dispatch(action);
    await vi.waitFor(() => expect(store.getState().api.queries).toEqual({}));
  });
});
