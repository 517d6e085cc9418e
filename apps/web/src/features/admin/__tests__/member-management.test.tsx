import type { User } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createPro, createUser } from '@/testing/factories';
import { bodiesOf, ng, ok, serveApi } from '@/testing/msw';
import { expectReasonRequiredThenKeptOnFailure } from '@/testing/reason-dialog';
import { renderWithProviders } from '@/testing/render';
import {
  MEMBERS_PAGE_SIZE,
  MemberManagement,
} from '../components/member-management';

const pro6 = () =>
  createPro('p6', {
    userName: '確認 待子',
    email: 'pro6@example.jp',
    pro: {
      lessonFee: 8000,
      verified: false,
      ratingAverage: null,
      reviewCount: 0,
    },
  });

const ama = () =>
  createUser({ id: 'a1', userName: '山本 拓也', email: 'ama1@example.jp' });

/** A tiny /admin/users: keyword on name or mail, type, verified; changes kept. */
const serveMembers = (
  initial: User[],
  opts: { failSuspend?: boolean } = {},
) => {
  const state = { members: initial, failSuspend: opts.failSuspend ?? false };
  serveApi({
    '/admin/users': (body: {
      keyword?: string;
      type?: string;
      verified?: boolean;
    }) =>
      ok(
        state.members.filter(
          (u) =>
            (!body.keyword ||
              u.userName.includes(body.keyword) ||
              (u.email ?? '').includes(body.keyword)) &&
            (!body.type || u.type === body.type) &&
            (body.verified === undefined ||
              (u.type === 'pro' && u.pro?.verified === body.verified)),
        ),
      ),
    '/admin/verifyPro': (body: { id: string; verified: boolean }) => {
      state.members = state.members.map((u) =>
        u.id === body.id
          ? { ...u, pro: { ...u.pro!, verified: body.verified } }
          : u,
      );
      return ok(state.members.find((u) => u.id === body.id));
    },
    '/admin/suspend': (body: {
      id: string;
      suspended: boolean;
      reason?: string;
    }) => {
      if (state.failSuspend) return ng('InternalError');
      state.members = state.members.map((u) =>
        u.id === body.id
          ? {
              ...u,
              suspended: body.suspended,
              ...(body.reason ? { suspendReason: body.reason } : {}),
            }
          : u,
      );
      return ok(state.members.find((u) => u.id === body.id));
    },
  });
  return state;
};

const lastBody = (path: string) => bodiesOf(path).at(-1);

/** Narrows the list to the pros still to be verified. */
const showUnverifiedOnly = async (user: ReturnType<typeof userEvent.setup>) => {
  await screen.findByRole('table');
  await user.selectOptions(
    screen.getByRole('combobox', { name: 'プロの確認状況' }),
    '確認中',
  );
  await user.click(screen.getByRole('button', { name: '検索する' }));
  await waitFor(() =>
    expect(lastBody('/admin/users')).toMatchObject({ verified: false }),
  );
  await waitFor(() => expect(screen.queryByText('山本 拓也')).toBeNull());
};

describe('会員管理', () => {
  it('lists members with mail, type, 確認中 and announces the results; searches by keyword, type and verification', async () => {
    const user = userEvent.setup();
    serveMembers([
      pro6(),
      ama(),
      createPro('p1', { email: 'pro1@example.jp' }),
    ]);
    renderWithProviders(<MemberManagement />);
    const table = await screen.findByRole('table', { name: /会員一覧/ });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    const row = within(table).getByRole('row', { name: /確認 待子/ });
    expect(within(row).getByText('pro6@example.jp')).toBeInTheDocument();
    expect(within(row).getByText('プロ')).toBeInTheDocument();
    expect(within(row).getByText('確認中')).toBeInTheDocument();
    expect(within(row).getByText('利用中')).toBeInTheDocument();
    expect(
      screen.getByText('1ページ目：1〜3件目を表示しています。'),
    ).toHaveAttribute('role', 'status');

    await user.type(
      screen.getByRole('searchbox', { name: '名前・メールアドレス' }),
      'pro6@',
    );
    await user.selectOptions(
      screen.getByRole('combobox', { name: '会員種別' }),
      'pro',
    );
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'プロの確認状況' }),
      '確認中',
    );
    await user.click(screen.getByRole('button', { name: '検索する' }));
    await waitFor(() =>
      expect(lastBody('/admin/users')).toEqual({
        keyword: 'pro6@',
        type: 'pro',
        verified: false,
        page: 1,
        size: MEMBERS_PAGE_SIZE,
      }),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('table')).getAllByRole('row'),
      ).toHaveLength(2),
    );

    await user.clear(
      screen.getByRole('searchbox', { name: '名前・メールアドレス' }),
    );
    await user.type(
      screen.getByRole('searchbox', { name: '名前・メールアドレス' }),
      'だれもいない',
    );
    await user.click(screen.getByRole('button', { name: '検索する' }));
    expect(
      await screen.findByText('条件に合う会員は見つかりませんでした。'),
    ).toHaveAttribute('role', 'status');
    // What was typed stays.
    expect(
      screen.getByRole('searchbox', { name: '名前・メールアドレス' }),
    ).toHaveValue('だれもいない');
  });

  it('pages through the members', async () => {
    const user = userEvent.setup();
    serveApi({
      '/admin/users': (body: { page: number }) =>
        ok(
          Array.from(
            { length: body.page === 1 ? MEMBERS_PAGE_SIZE : 3 },
            (_, i) =>
              createUser({
                id: `m${body.page}-${i}`,
                userName: `会員 ${body.page}-${i}`,
              }),
          ),
        ),
    });
    renderWithProviders(<MemberManagement />);
    await screen.findByText('会員 1-0');
    await user.click(screen.getByRole('button', { name: '次のページ' }));
    expect(
      await screen.findByText('2ページ目：21〜23件目を表示しています。'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '次のページ' })).toBeDisabled();
    expect(screen.getByRole('heading', { name: '会員一覧' })).toHaveFocus();
  });

  it('verifies a pro (and takes it back), saying so', async () => {
    const user = userEvent.setup();
    serveMembers([pro6()]);
    renderWithProviders(<MemberManagement />);
    await user.click(
      await screen.findByRole('button', {
        name: '確認済みにする（確認 待子さん）',
      }),
    );
    expect(
      await screen.findByText(
        '確認 待子さんを確認済みにしました。本人にメールでお知らせしました。',
      ),
    ).toBeInTheDocument();
    expect(lastBody('/admin/verifyPro')).toEqual({ id: 'p6', verified: true });
    const row = within(screen.getByRole('table')).getByRole('row', {
      name: /確認 待子/,
    });
    expect(await within(row).findByText('確認済み')).toBeInTheDocument();
    await user.click(
      within(row).getByRole('button', {
        name: '確認を取り消す（確認 待子さん）',
      }),
    );
    await waitFor(() =>
      expect(lastBody('/admin/verifyPro')).toEqual({
        id: 'p6',
        verified: false,
      }),
    );
    expect(await within(row).findByText('確認中')).toBeInTheDocument();
  });

  it('keeps the focus on a verified pro who stays in the list', async () => {
    const user = userEvent.setup();
    serveMembers([pro6()]);
    renderWithProviders(<MemberManagement />);
    await user.click(
      await screen.findByRole('button', {
        name: '確認済みにする（確認 待子さん）',
      }),
    );
    expect(
      await screen.findByRole('button', {
        name: '確認を取り消す（確認 待子さん）',
      }),
    ).toHaveFocus();
  });

  it('moves the focus to the next pro when the verified one leaves the 確認中 list, without announcing the count', async () => {
    const user = userEvent.setup();
    serveMembers([
      pro6(),
      createPro('p7', {
        userName: '確認 次郎',
        pro: {
          lessonFee: 6000,
          verified: false,
          ratingAverage: null,
          reviewCount: 0,
        },
      }),
    ]);
    renderWithProviders(<MemberManagement />);
    await showUnverifiedOnly(user);
    await user.click(
      screen.getByRole('button', { name: '確認済みにする（確認 待子さん）' }),
    );
    const next = screen.getByRole('button', {
      name: '確認済みにする（確認 次郎さん）',
    });
    await waitFor(() => expect(next).toHaveFocus());
    expect(screen.queryByText('確認 待子')).toBeNull();
    expect(
      screen.getByText(
        '確認 待子さんを確認済みにしました。本人にメールでお知らせしました。',
      ),
    ).toHaveAttribute('role', 'status');
    // The new count is shown but not announced over the message.
    expect(
      screen.getByText('1ページ目：1〜1件目を表示しています。'),
    ).toHaveAttribute('aria-live', 'off');
  });

  it('says once that no one is left when the last 確認中 pro is verified, and focuses the list', async () => {
    const user = userEvent.setup();
    serveMembers([pro6(), ama()]);
    renderWithProviders(<MemberManagement />);
    await showUnverifiedOnly(user);
    await user.click(
      screen.getByRole('button', { name: '確認済みにする（確認 待子さん）' }),
    );
    const empty = await screen.findByText(
      '条件に合う会員は見つかりませんでした。',
    );
    // One message says it all; the empty list is not announced after it.
    expect(empty).toHaveAttribute('aria-live', 'off');
    expect(
      screen.getByText(
        '確認 待子さんを確認済みにしました。本人にメールでお知らせしました。この条件に合う会員はほかにいません。',
      ),
    ).toHaveAttribute('role', 'status');
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: '会員一覧' })).toHaveFocus(),
    );

    // A new search announces its results again.
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'プロの確認状況' }),
      'すべて',
    );
    await user.click(screen.getByRole('button', { name: '検索する' }));
    const count = await screen.findByText(
      '1ページ目：1〜2件目を表示しています。',
    );
    expect(count).toHaveAttribute('role', 'status');
    expect(count).not.toHaveAttribute('aria-live');
  });

  it('suspends with a required reason (kept on a failure), then lifts it', async () => {
    const user = userEvent.setup();
    const state = serveMembers([ama()], { failSuspend: true });
    const { store } = renderWithProviders(<MemberManagement />);
    await user.click(
      await screen.findByRole('button', { name: '利用停止（山本 拓也さん）' }),
    );
    const sendAgain = await expectReasonRequiredThenKeptOnFailure(user, store, {
      dialog: screen.getByRole('dialog', { name: '会員の利用停止' }),
      box: /利用停止の理由/,
      confirm: '利用停止にする',
      required: '利用停止の理由を入力してください。',
      path: '/admin/suspend',
      text: '迷惑行為の報告が続いたため',
    });
    state.failSuspend = false;
    await sendAgain();
    expect(
      await screen.findByText('山本 拓也さんを利用停止にしました。'),
    ).toBeInTheDocument();
    expect(lastBody('/admin/suspend')).toEqual({
      id: 'a1',
      suspended: true,
      reason: '迷惑行為の報告が続いたため',
    });
    const row = within(screen.getByRole('table')).getByRole('row', {
      name: /山本 拓也/,
    });
    expect(await within(row).findByText('利用停止中')).toBeInTheDocument();
    expect(
      within(row).getByText('理由：迷惑行為の報告が続いたため'),
    ).toBeInTheDocument();

    await user.click(
      within(row).getByRole('button', { name: '停止を解除（山本 拓也さん）' }),
    );
    const lift = screen.getByRole('dialog', { name: '利用停止の解除' });
    await user.click(
      within(lift).getByRole('button', { name: '停止を解除する' }),
    );
    expect(
      await screen.findByText('山本 拓也さんの利用停止を解除しました。'),
    ).toBeInTheDocument();
    expect(lastBody('/admin/suspend')).toEqual({ id: 'a1', suspended: false });
  });
});
