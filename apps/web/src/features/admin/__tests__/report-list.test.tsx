import type { Report } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodiesOf, bodyOf, ng, ok, serveApi } from '@/testing/msw';
import { expectReasonRequiredThenKeptOnFailure } from '@/testing/reason-dialog';
import { renderWithProviders } from '@/testing/render';
import { ReportList } from '../components/report-list';

const report = (id: string, overrides: Partial<Report> = {}): Report => ({
  id,
  reporterId: 'u-reporter',
  targetType: 'review',
  targetId: 'rv1',
  reason: '不適切な表現があります',
  status: 'open',
  createdAt: '2026-11-20T01:00:00.000Z',
  ...overrides,
});

const serveReports = (opts: { failOnce?: boolean } = {}) => {
  const state = {
    reports: [
      report('r1'),
      report('r2', {
        targetType: 'message',
        targetId: 'L1:01K0',
        reason: '勧誘のメッセージ',
      }),
      report('r3', {
        targetType: 'user',
        targetId: 'p9',
        reason: 'なりすまし',
      }),
    ],
    fail: opts.failOnce ?? false,
  };
  serveApi({
    '/admin/reports': (body: { status?: string }) =>
      ok(state.reports.filter((r) => !body.status || r.status === body.status)),
    '/admin/reportContexts': (body: { ids: string[] }) =>
      ok(
        [
          {
            id: 'r1',
            reporterName: '通報 花子',
            targetUserName: '口コミ 太郎',
            targetUserType: 'amature',
            targetText: 'ひどいレッスンでした',
            rating: 1,
            proId: 'p1',
          },
          {
            id: 'r2',
            reporterName: '通報 花子',
            targetUserName: 'チャット 次郎',
            targetText: 'この商品を買いませんか',
          },
          {
            id: 'r3',
            reporterName: '通報 三郎',
            targetUserName: '偽 プロ',
            targetUserType: 'pro',
          },
        ].filter((c) => body.ids.includes(c.id)),
      ),
    '/admin/reportResolve': (body: { id: string; resolution: string }) => {
      if (state.fail) {
        state.fail = false;
        return ng('InternalError');
      }
      state.reports = state.reports.map((r) =>
        r.id === body.id
          ? {
              ...r,
              status: 'resolved' as const,
              resolution: body.resolution,
              resolvedAt: '2026-11-21T01:00:00.000Z',
            }
          : r,
      );
      return ok(state.reports.find((r) => r.id === body.id));
    },
  });
};

describe('通報', () => {
  it('shows what was reported, by whom, why and when', async () => {
    serveReports();
    renderWithProviders(<ReportList />);
    const list = await screen.findByRole('list', { name: '未対応の通報' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const review = within(list).getByRole('article', {
      name: '口コミへの通報',
    });
    expect(await within(review).findByText('通報 花子')).toBeInTheDocument();
    // The review, its writer and rating, then the report's reason and time.
    for (const shown of [
      'ひどいレッスンでした',
      /口コミ 太郎/,
      '評価 1 / 5',
      '不適切な表現があります',
      '2026年11月20日(金) 10:00',
    ]) {
      expect(within(review).getByText(shown)).toBeInTheDocument();
    }
    expect(
      within(review).getByRole('link', {
        name: '口コミが載っているプロフィールを見る',
      }),
    ).toHaveAttribute('href', '/tabs/likes/pro/p1');
    const message = within(list).getByRole('article', {
      name: 'チャットのメッセージへの通報',
    });
    expect(
      within(message).getByText('この商品を買いませんか'),
    ).toBeInTheDocument();
    const profile = within(list).getByRole('article', {
      name: 'プロフィールへの通報',
    });
    expect(
      within(profile).getByRole('link', { name: 'プロフィールを見る' }),
    ).toHaveAttribute('href', '/tabs/likes/pro/p9');
    expect(await bodyOf('/admin/reports')).toMatchObject({ status: 'open' });
  });

  it('resolves a report with a required note, keeping it on a failure', async () => {
    const user = userEvent.setup();
    serveReports({ failOnce: true });
    const { store } = renderWithProviders(<ReportList />);
    const list = await screen.findByRole('list', { name: '未対応の通報' });
    const review = within(list).getByRole('article', {
      name: '口コミへの通報',
    });
    await user.click(
      within(review).getByRole('button', { name: '対応済みにする' }),
    );
    const sendAgain = await expectReasonRequiredThenKeptOnFailure(user, store, {
      dialog: screen.getByRole('dialog', { name: '通報を対応済みにする' }),
      box: /対応内容/,
      confirm: '対応済みにする',
      required: '対応内容を入力してください。',
      path: '/admin/reportResolve',
      text: '口コミを削除しました',
    });
    // The server failed once only.
    await sendAgain();
    expect(
      await screen.findByText('口コミへの通報を対応済みにしました。'),
    ).toBeInTheDocument();
    expect(bodiesOf('/admin/reportResolve').at(-1)).toEqual({
      id: 'r1',
      resolution: '口コミを削除しました',
    });
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: '未対応の通報' })).getAllByRole(
          'listitem',
        ),
      ).toHaveLength(2),
    );

    await user.click(screen.getByRole('radio', { name: '対応済み' }));
    const done = await screen.findByRole('list', { name: '対応済みの通報' });
    // The open reports stay on screen until the resolved ones have come.
    expect(
      await within(done).findByText(/口コミを削除しました/),
    ).toBeInTheDocument();
    expect(
      within(done).queryByRole('button', { name: '対応済みにする' }),
    ).toBeNull();
  });

  it('names each 対応済みにする by its report: kind and reason', async () => {
    serveReports();
    renderWithProviders(<ReportList />);
    const list = await screen.findByRole('list', { name: '未対応の通報' });
    for (const description of [
      '口コミへの通報 通報の理由不適切な表現があります',
      'チャットのメッセージへの通報 通報の理由勧誘のメッセージ',
      'プロフィールへの通報 通報の理由なりすまし',
    ])
      expect(
        within(list).getByRole('button', {
          name: '対応済みにする',
          description,
        }),
      ).toBeInTheDocument();
  });

  it('reads older reports with もっと見る, and their contexts', async () => {
    const user = userEvent.setup();
    const reports = Array.from({ length: 120 }, (_, i) =>
      report(`r${i + 1}`, { reason: `理由${i + 1}` }),
    );
    serveApi({
      '/admin/reports': ({
        page = 1,
        size = 50,
      }: {
        page?: number;
        size?: number;
      }) => ok(reports.slice((page - 1) * size, page * size)),
      '/admin/reportContexts': ({ ids }: { ids: string[] }) =>
        ok(ids.map((id) => ({ id, reporterName: `通報者${id}` }))),
    });
    renderWithProviders(<ReportList />);
    const list = await screen.findByRole('list', { name: '未対応の通報' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    expect(bodiesOf('/admin/reports')).toEqual([
      { status: 'open', page: 1, size: 50 },
    ]);
    await user.click(screen.getByRole('button', { name: 'もっと見る' }));
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem')).toHaveLength(100),
    );
    await user.click(screen.getByRole('button', { name: 'もっと見る' }));
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem')).toHaveLength(120),
    );
    expect(screen.queryByRole('button', { name: 'もっと見る' })).toBeNull();
    expect(within(list).getByText('理由120')).toBeInTheDocument();
    // The contexts of 120 reports, asked 100 ids at a time (the API's limit).
    expect(await within(list).findByText('通報者r120')).toBeInTheDocument();
    expect(
      bodiesOf('/admin/reportContexts').every(
        (b) => (b.ids as string[]).length <= 100,
      ),
    ).toBe(true);
  });
});
