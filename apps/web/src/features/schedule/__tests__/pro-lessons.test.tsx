import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createFullLesson,
  createLesson,
  createReservedLesson,
} from '@/testing/factories';
import { bodyOf, ng, ok } from '@/testing/msw';
import {
  cardOf,
  serveLessons,
  serveLessonsChangedBy,
  setNow,
} from '@/testing/lessons';
import { sendReason } from '@/testing/reason-dialog';
import { renderWithProviders } from '@/testing/render';
import { ProLessons } from '../components/pro-lessons';

beforeEach(() => {
  setNow('2026-11-20T00:00:00Z');
});
afterEach(() => {
  vi.useRealTimers();
});

/** The pro's open lessons. */
const ACTIVE = '/schedule/getActive';

const renderAsAmateur = () =>
  renderWithProviders(<ProLessons proId="pro-1" userId="u-1" canReserve />);

describe('a pro’s lessons as an amateur sees them', () => {
  it('offers 予約する on an open lesson and キャンセル待ちに登録 on a full one', async () => {
    serveLessons(ACTIVE, {
      lessons: [
        createLesson('O1', { place: '空きありコース' }),
        createFullLesson('F1', { place: '満員コース', waitlistCount: 3 }),
      ],
    });
    renderAsAmateur();
    const open = await cardOf('空きありコース');
    expect(
      within(open).getByRole('button', { name: /を予約する$/ }),
    ).toBeEnabled();
    expect(within(open).queryByRole('button', { name: /キャンセル待ち/ })).toBe(
      null,
    );
    const full = await cardOf('満員コース');
    expect(
      within(full).getByRole('button', {
        name: '2026年11月28日(土) 09:00〜のレッスンのキャンセル待ちに登録',
      }),
    ).toBeEnabled();
    expect(within(full).getByText('キャンセル待ち')).toBeInTheDocument();
    expect(within(full).getByText('3人')).toBeInTheDocument();
    expect(within(full).queryByRole('button', { name: /予約する/ })).toBeNull();
  });

  it('joins the waitlist, then shows the place in line with a way out, the focus on it', async () => {
    const user = userEvent.setup();
    const state = {
      lessons: [
        createFullLesson('F1', { place: '満員コース', waitlistCount: 3 }),
      ],
    };
    serveLessons(ACTIVE, state, {
      '/schedule/waitlistJoin': () => {
        state.lessons = [
          createFullLesson('F1', {
            place: '満員コース',
            waitlistCount: 4,
            waitlistPosition: 4,
          }),
        ];
        return ok({ position: 4 });
      },
    });
    renderAsAmateur();
    await user.click(
      await screen.findByRole('button', { name: /キャンセル待ちに登録$/ }),
    );
    expect(
      await screen.findByText(/のキャンセル待ちに登録しました（4番目）。/),
    ).toHaveAttribute('role', 'status');
    const card = await cardOf('満員コース');
    expect(
      await within(card).findByText('キャンセル待ち 4番目'),
    ).toBeInTheDocument();
    const leave = within(card).getByRole('button', {
      name: /キャンセル待ちをやめる$/,
    });
    await waitFor(() => expect(leave).toHaveFocus());
    expect(await bodyOf('/schedule/waitlistJoin')).toEqual({ id: 'F1' });
  });

  it('leaves the waitlist and offers joining again', async () => {
    const user = userEvent.setup();
    serveLessonsChangedBy(
      ACTIVE,
      [createFullLesson('F1', { waitlistCount: 2, waitlistPosition: 2 })],
      '/schedule/waitlistLeave',
      {
        after: [createFullLesson('F1', { waitlistCount: 1 })],
        reply: () => ok({ left: true }),
      },
    );
    renderAsAmateur();
    expect(await screen.findByText('キャンセル待ち 2番目')).toBeInTheDocument();
    await user.click(
      screen.getByRole('button', { name: /キャンセル待ちをやめる$/ }),
    );
    expect(
      await screen.findByRole('button', { name: /キャンセル待ちに登録$/ }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/キャンセル待ち \d+番目/)).toBeNull();
    expect(await bodyOf('/schedule/waitlistLeave')).toEqual({ id: 'F1' });
  });

  it('shows a Conflict on joining (the lesson opened meanwhile) as the エラー alert and fetches again', async () => {
    const user = userEvent.setup();
    const state = { lessons: [createFullLesson('F1')] };
    serveLessons(ACTIVE, state, {
      '/schedule/waitlistJoin': () => {
        state.lessons = [createLesson('F1', { reservedCount: 1 })];
        return ng('Conflict');
      },
    });
    const { store } = renderAsAmateur();
    await user.click(
      await screen.findByRole('button', { name: /キャンセル待ちに登録$/ }),
    );
    expect(
      await screen.findByRole('button', { name: /を予約する$/ }),
    ).toBeEnabled();
    expect(store.getState().ui.alerts).toMatchObject([
      { kind: 'error', code: 'Conflict' },
    ]);
  });

  it('on a reserved lesson shows 予約済み, the deadline, the calendar button and キャンセル', async () => {
    serveLessons(ACTIVE, {
      lessons: [createReservedLesson('R1', { statusRound: 'full' })],
    });
    renderAsAmateur();
    const card = await cardOf('府中カントリークラブ');
    expect(within(card).getByText('予約済み')).toBeInTheDocument();
    expect(
      within(card).getByText('キャンセル期限：11月27日(金) 23:59'),
    ).toBeInTheDocument();
    expect(
      within(card).getByRole('button', { name: /カレンダーに追加$/ }),
    ).toBeInTheDocument();
    expect(
      within(card).getByRole('button', { name: /の予約をキャンセル$/ }),
    ).toBeInTheDocument();
    // Reserved, so no waitlist button although the lesson is full.
    expect(within(card).queryByRole('button', { name: /キャンセル待ち/ })).toBe(
      null,
    );
  });
});

describe('an admin on a pro’s lessons', () => {
  it('calls a lesson off with a reason', async () => {
    const user = userEvent.setup();
    const state = { lessons: [createLesson('L1', { reservedCount: 2 })] };
    serveLessons(ACTIVE, state, {
      '/schedule/callOff': () => {
        state.lessons = [];
        return ok(
          createLesson('L1', {
            statusRound: 'cancelled',
            callOffReason: 'コース閉鎖のため',
          }),
        );
      },
    });
    renderWithProviders(
      <ProLessons
        proId="pro-1"
        userId="admin-1"
        canReserve={false}
        canCallOff
      />,
    );
    await user.click(
      await screen.findByRole('button', {
        name: '2026年11月28日(土) 09:00のレッスンを中止する',
      }),
    );
    await sendReason(
      user,
      {
        dialog: screen.getByRole('dialog', { name: 'レッスンの中止' }),
        box: /中止の理由/,
        confirm: '中止する',
      },
      'コース閉鎖のため',
    );
    expect(
      await screen.findByText(/のレッスンを中止にしました。$/),
    ).toBeInTheDocument();
    expect(await bodyOf('/schedule/callOff')).toEqual({
      id: 'L1',
      reason: 'コース閉鎖のため',
    });
  });
});
