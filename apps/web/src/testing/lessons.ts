import type { Schedule } from '@proam/contract';
import { screen } from '@testing-library/react';
import { vi } from 'vitest';
import { createPro } from './factories';
import { ok, serveApi } from './msw';

/**
 * Sets the clock to `iso`. Only Date is faked: MSW, React and user-event keep
 * their real timers. Pair with `vi.useRealTimers()` in afterEach.
 */
export const setNow = (iso: string) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
};

/**
 * The API with `state.lessons` as the answer of `path` (mutable between
 * calls) and pro-1 as 山田 太郎; `more` adds or replaces routes.
 */
export const serveLessons = (
  path: '/schedule/getById' | '/schedule/getActive',
  state: { lessons: Schedule[] },
  more: Parameters<typeof serveApi>[0] = {},
) =>
  serveApi({
    [path]: () => ok(state.lessons),
    '/user/getByIdList': () =>
      ok([createPro('pro-1', { userName: '山田 太郎' })]),
    ...more,
  });

/**
 * serveLessons with `before`, and `action`: called, it answers `reply` and
 * the lessons become `after` (what the server holds once it has acted).
 */
export const serveLessonsChangedBy = (
  path: Parameters<typeof serveLessons>[0],
  before: Schedule[],
  action: string,
  { after, reply }: { after: Schedule[]; reply: () => Response },
) => {
  const state = { lessons: before };
  serveLessons(path, state, {
    [action]: () => {
      state.lessons = after;
      return reply();
    },
  });
};

/** The lesson card (article) that shows `text`. */
export const cardOf = async (text: string | RegExp) =>
  (await screen.findByText(text)).closest('article') as HTMLElement;
