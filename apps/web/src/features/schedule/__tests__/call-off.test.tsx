import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Schedule } from '@proam/contract';
import { createLesson } from '@/testing/factories';
import { bodiesOf, ng, ok, pathsCalled, serveApi } from '@/testing/msw';
import { cardOf, setNow } from '@/testing/lessons';
import { expectReasonRequiredThenKeptOnFailure } from '@/testing/reason-dialog';
import { renderWithProviders } from '@/testing/render';
import { ProSchedule } from '../components/pro-schedule';

afterEach(() => {
  vi.useRealTimers();
});

const reserved = (overrides: Partial<Schedule> = {}) =>
  createLesson('L1', {
    reservedCount: 2,
    participants: ['u-2', 'u-3'],
    ...overrides,
  });

const renderPro = () =>
  renderWithProviders(<ProSchedule proId="pro-1" today="2026-11-28" />);

const openDialog = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(
    await screen.findByRole('button', { name: '09:00のレッスンを中止する' }),
  );
  return screen.getByRole('dialog', { name: 'レッスンの中止' });
};

/** A reserved lesson on the 28th, seen by its pro on the 20th, with 中止する open. */
const openOnReservedLesson = async () => {
  setNow('2026-11-20T00:00:00Z');
  const user = userEvent.setup();
  serveApi({
    '/schedule/getById': () => ok([reserved()]),
    '/user/getByIdList': () => ok([]),
  });
  renderPro();
  return { user, dialog: await openDialog(user) };
};

const reasonBox = (dialog: HTMLElement) =>
  within(dialog).getByRole('textbox', { name: /中止の理由/ });

describe('a pro calls a lesson off', () => {
  it('asks for a reason, keeps it on a failure, then sends it and shows 中止 with the reason', async () => {
    setNow('2026-11-20T00:00:00Z');
    const user = userEvent.setup();
    const state = { lessons: [reserved()], fail: true };
    serveApi({
      '/user/getByIdList': () => ok([]),
      '/schedule/getById': () => ok(state.lessons),
      '/schedule/callOff': (body: { reason: string }) => {
        if (state.fail) {
          state.fail = false;
          return ng('InternalError');
        }
        state.lessons = [
          reserved({ statusRound: 'cancelled', callOffReason: body.reason }),
        ];
        return ok(state.lessons[0]);
      },
    });
    const { store } = renderPro();
    const dialog = await openDialog(user);
    expect(reasonBox(dialog)).toHaveAttribute('placeholder', '雨天のため');
    const sendAgain = await expectReasonRequiredThenKeptOnFailure(user, store, {
      dialog,
      box: /中止の理由/,
      confirm: '中止する',
      required: '中止の理由を入力してください。',
      path: '/schedule/callOff',
      text: '雨天のため',
    });
    // The server failed once only.
    await sendAgain();
    expect(
      await screen.findByText(/のレッスンを中止にしました。/),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    const card = await cardOf('中止の理由：雨天のため');
    expect(within(card).getByText('中止')).toBeInTheDocument();
    // Called off: no second 中止する, and the focus is on what happened, not lost.
    expect(within(card).queryByRole('button', { name: /中止する/ })).toBeNull();
    await waitFor(() =>
      expect(screen.getByText(/のレッスンを中止にしました。/)).toHaveFocus(),
    );
    expect(bodiesOf('/schedule/callOff')).toEqual([
      { id: 'L1', reason: '雨天のため' },
      { id: 'L1', reason: '雨天のため' },
    ]);
  });

  it('refuses a reason over 200 characters before sending', async () => {
    const { user, dialog } = await openOnReservedLesson();
    await user.click(reasonBox(dialog));
    await user.paste('あ'.repeat(201));
    await user.click(within(dialog).getByRole('button', { name: '中止する' }));
    expect(
      within(dialog).getByText('中止の理由は200文字以内で入力してください。'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('201 / 200文字')).toBeInTheDocument();
    expect(pathsCalled()).not.toContain('/schedule/callOff');
  });

  it('戻る closes the dialog without sending and starts empty next time', async () => {
    const { user, dialog } = await openOnReservedLesson();
    await user.type(reasonBox(dialog), '台風');
    await user.click(within(dialog).getByRole('button', { name: '戻る' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(reasonBox(await openDialog(user))).toHaveValue('');
    expect(pathsCalled()).not.toContain('/schedule/callOff');
  });

  it('offers no 中止する once the lesson has started', async () => {
    // 09:00 Japan time on the lesson's day, when it starts.
    setNow('2026-11-28T00:00:00Z');
    serveApi({
      '/schedule/getById': () => ok([reserved()]),
      '/user/getByIdList': () => ok([]),
    });
    renderPro();
    await screen.findByText('府中カントリークラブ');
    expect(screen.queryByRole('button', { name: /中止する/ })).toBeNull();
  });

  it('shows a lesson called off earlier with its reason on the pro’s card', async () => {
    setNow('2026-11-20T00:00:00Z');
    serveApi({
      '/user/getByIdList': () => ok([]),
      '/schedule/getById': () =>
        ok([
          reserved({
            statusRound: 'cancelled',
            callOffReason: '台風接近のため',
          }),
        ]),
    });
    renderPro();
    expect(
      await screen.findByText('中止の理由：台風接近のため'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('このレッスンは中止になりました。'),
    ).toBeInTheDocument();
  });
});
