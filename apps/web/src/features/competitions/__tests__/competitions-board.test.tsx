import type { Competition } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeLoggedInAs } from '@/testing/auth';
import { createCompetition } from '@/testing/factories';
import { bodiesOf, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { CompetitionsBoard } from '../components/competitions-board';

const open = createCompetition({
  id: 'c-open',
  name: '春のプロアム',
  date: '2027-04-10',
  status: 'open',
  entryFee: 5000,
  capacity: 40,
  entryDeadline: '2027-03-31',
});
const draft = createCompetition({
  id: 'c-draft',
  name: '夏の下書き杯',
  date: '2027-07-01',
  status: 'draft',
});

/** The board as an admin sees it; `/competition/update` answers `updated`. */
const renderBoard = ({
  updated = 1,
  list = [open, draft],
}: { updated?: number; list?: Competition[] } = {}) => {
  const state = { list };
  serveApi(
    {
      '/competition/read': () => ok(state.list),
      '/competition/update': () => ok(updated),
    },
    () => ok([]),
  );
  renderWithProviders(<CompetitionsBoard />, {
    store: storeLoggedInAs({ type: 'admin' }),
  });
  return state;
};

/** The admin buttons of the card named `name`. */
const cardActions = async (name: string) =>
  within(await screen.findByRole('group', { name: `${name} の管理` }));

beforeEach(() => {
  // A form scrolls the page to its top (jsdom has no scrolling).
  vi.stubGlobal('scrollTo', vi.fn());
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('大会 (admin)', () => {
  it('sends null for a cleared 参加費 and 定員, and an empty deadline, so the edit clears them', async () => {
    const user = userEvent.setup();
    renderBoard();
    await user.click((await cardActions('春のプロアム')).getByText('編集'));
    await user.clear(screen.getByLabelText(/参加費/));
    await user.clear(screen.getByLabelText(/定員/));
    await user.clear(screen.getByLabelText(/エントリー締切/));
    await user.click(screen.getByRole('button', { name: '保存する' }));

    expect(
      await screen.findByText('「春のプロアム」を保存しました。'),
    ).toBeInTheDocument();
    expect(bodiesOf('/competition/update')).toEqual([
      expect.objectContaining({
        id: 'c-open',
        entryFee: null,
        capacity: null,
        entryDeadline: '',
      }),
    ]);
  });

  it('says the competition is gone when the update changed nothing, keeping the form', async () => {
    const user = userEvent.setup();
    const state = renderBoard({ updated: 0 });
    await user.click((await cardActions('春のプロアム')).getByText('編集'));
    // Deleted by another admin meanwhile: the refetch no longer lists it.
    state.list = [draft];
    await user.click(screen.getByRole('button', { name: '保存する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'この大会は見つかりませんでした（削除された可能性があります）。',
    );
    await waitFor(() =>
      expect(bodiesOf('/competition/read').length).toBeGreaterThan(1),
    );
    expect(screen.getByRole('heading', { name: '大会を編集' })).toBeVisible();
    expect(screen.queryByText(/保存しました/)).toBeNull();
  });

  it('refuses a half-typed エントリー締切 rather than clearing the deadline', async () => {
    const user = userEvent.setup();
    renderBoard();
    await user.click((await cardActions('春のプロアム')).getByText('編集'));
    const deadline = screen.getByLabelText(/エントリー締切/);
    await user.clear(deadline);
    // What a browser reports for 2027/03/__: no value, and badInput.
    Object.defineProperty(deadline, 'validity', {
      configurable: true,
      get: () => ({ valid: false, badInput: true }),
    });
    await user.click(screen.getByRole('button', { name: '保存する' }));

    expect(deadline).toHaveAccessibleDescription(
      'エントリー締切を最後まで入力してください。',
    );
    expect(deadline).toHaveFocus();
    expect(bodiesOf('/competition/update')).toEqual([]);
  });

  it('focuses the 結果を入力 heading as the editor opens', async () => {
    const user = userEvent.setup();
    renderBoard();
    await user.click(
      (await cardActions('春のプロアム')).getByText('結果を入力'),
    );
    expect(screen.getByRole('heading', { name: '結果を入力' })).toHaveFocus();
  });

  it('gives the focus back to the button that opened a form on キャンセル', async () => {
    const user = userEvent.setup();
    renderBoard();
    await user.click(
      (await cardActions('春のプロアム')).getByText('結果を入力'),
    );
    await user.click(screen.getByRole('button', { name: 'キャンセル' }));
    expect(
      (await cardActions('春のプロアム')).getByText('結果を入力'),
    ).toHaveFocus();

    await user.click((await cardActions('夏の下書き杯')).getByText('編集'));
    expect(screen.getByRole('heading', { name: '大会を編集' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'キャンセル' }));
    expect((await cardActions('夏の下書き杯')).getByText('編集')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: '新規作成' }));
    expect(
      screen.getByRole('heading', { name: '大会を新規作成' }),
    ).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'キャンセル' }));
    expect(screen.getByRole('button', { name: '新規作成' })).toHaveFocus();
  });

  it('does not say 公開しました when publishing changed nothing', async () => {
    const user = userEvent.setup();
    renderBoard({ updated: 0 });
    await user.click((await cardActions('夏の下書き杯')).getByText('公開'));
    expect(
      await screen.findByText(
        'この大会は見つかりませんでした（削除された可能性があります）。',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/公開しました/)).toBeNull();
  });
});
