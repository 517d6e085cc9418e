import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeLoggedInAs } from '@/testing/auth';
import { setNow } from '@/testing/lessons';
import { apiCalls, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { SalesPage } from '../components/sales-page';
import { createStatement } from './payment-factories';

beforeEach(() => {
  // 2026-12-01 00:30 in Japan, still November in UTC: the month is Japan's.
  setNow('2026-11-30T15:30:00.000Z');
});
afterEach(() => {
  vi.useRealTimers();
});

const serveStatements = () =>
  serveApi({
    '/payment/statement': (body: { proId: string; month: string }) =>
      ok(
        body.month === '2026-11'
          ? createStatement({ proId: body.proId })
          : createStatement({
              proId: body.proId,
              month: body.month,
              lessons: [],
              grossFee: 0,
              commission: 0,
              payout: 0,
            }),
      ),
  });

/** The page, with the statements served, as the user `id` of `type` opens it at `route`. */
const renderSales = (
  type: 'pro' | 'admin' | 'amature',
  id = 'p-1',
  route?: string,
) => {
  serveStatements();
  renderWithProviders(<SalesPage />, {
    store: storeLoggedInAs({ id, type }),
    route,
  });
};

describe('売上明細', () => {
  it('starts at this month in Japan time for the pro themself and says when nothing was paid', async () => {
    renderSales('pro');
    expect(
      await screen.findByText('この月の売上はありません。'),
    ).toBeInTheDocument();
    expect(apiCalls[0]?.body).toEqual({ proId: 'p-1', month: '2026-12' });
    expect(screen.getByRole('combobox', { name: '対象月' })).toHaveValue(
      '2026-12',
    );
    expect(screen.getByText(/月末締め・翌月末払い/)).toHaveTextContent(
      '2026年12月分は2027年1月31日(日)までにお振り込みします',
    );
    expect(screen.queryByRole('table')).toBeNull();
    // This month counts the lessons held so far.
    expect(
      screen.getByText('今月分は、開催済みのレッスンのみを集計しています。'),
    ).toBeInTheDocument();
  });

  it('lists the month’s lessons with subtotals and the totals', async () => {
    const user = userEvent.setup({ advanceTimers: () => undefined });
    renderSales('pro');
    await screen.findByText('この月の売上はありません。');
    await user.selectOptions(
      screen.getByRole('combobox', { name: '対象月' }),
      '2026-11',
    );
    const table = await screen.findByRole('table', {
      name: '2026年11月のレッスン（2件）',
    });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['日付', '時間', '場所', 'レッスン料', '参加者', '小計'],
      [
        '2026年11月8日(日)',
        '09:30〜',
        '富士見ヶ丘カントリー倶楽部',
        '12,000円',
        '3名',
        '36,000円',
      ],
      [
        '2026年11月21日(土)',
        '13:00〜',
        '武蔵野ゴルフクラブ',
        '8,000円',
        '1名',
        '8,000円',
      ],
    ]);
    const summary = screen.getByLabelText('2026年11月の集計');
    expect(summary).toHaveTextContent('売上合計44,000円');
    expect(summary).toHaveTextContent('手数料（10%）−4,400円');
    expect(summary).toHaveTextContent('お支払い予定額39,600円');
    expect(apiCalls.at(-1)?.body).toEqual({ proId: 'p-1', month: '2026-11' });
    // A past month is complete: no note about lessons still to come.
    expect(screen.queryByText(/開催済みのレッスンのみ/)).toBeNull();
  });

  it('shows a lesson paid at two fees as two lines that add up to the total', async () => {
    const consoleError = vi.spyOn(console, 'error');
    serveApi({
      '/payment/statement': (body: { proId: string; month: string }) =>
        ok(
          createStatement({
            proId: body.proId,
            month: body.month,
            lessons: [
              {
                scheduleId: 's-1',
                date: '2026-12-01',
                startTime: '00:00',
                place: '富士見ヶ丘カントリー倶楽部',
                fee: 4000,
                participants: 2,
              },
              {
                scheduleId: 's-1',
                date: '2026-12-01',
                startTime: '00:00',
                place: '富士見ヶ丘カントリー倶楽部',
                fee: 4500,
                participants: 1,
              },
            ],
            grossFee: 12500,
            commission: 1250,
            payout: 11250,
          }),
        ),
    });
    renderWithProviders(<SalesPage />, {
      store: storeLoggedInAs({ id: 'p-1', type: 'pro' }),
    });
    const table = await screen.findByRole('table', {
      name: '2026年12月のレッスン（2件）',
    });
    const subtotals = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.querySelectorAll('td')[5]?.textContent);
    expect(subtotals).toEqual(['8,000円', '4,500円']);
    // Two lines of one lesson are two rows to React too (keys of their own).
    expect(
      consoleError.mock.calls.filter((args) =>
        args.map(String).join(' ').includes('same key'),
      ),
    ).toEqual([]);
    expect(screen.getByLabelText('2026年12月の集計')).toHaveTextContent(
      '売上合計12,500円',
    );
    expect(
      screen.getByText('今月分は、開催済みのレッスンのみを集計しています。'),
    ).toBeInTheDocument();
  });

  it('lets an admin read a named pro’s month', async () => {
    renderSales('admin', 'a-1', '/sales?proId=p-7&month=2026-11');
    expect(
      await screen.findByRole('heading', {
        name: '佐藤 健太プロ 2026年11月の売上明細',
      }),
    ).toBeInTheDocument();
    expect(apiCalls[0]?.body).toEqual({ proId: 'p-7', month: '2026-11' });
    expect(
      screen.getByRole('link', { name: '売上・精算へ戻る' }),
    ).toHaveAttribute('href', '/tabs/admin?section=sales&month=2026-11');
  });

  it('is for pros only, and asks nothing for an amateur', async () => {
    renderSales('amature', 'u-1', '/sales?proId=p-1');
    expect(
      screen.getByText('売上明細はプロ会員の方がご利用いただけます'),
    ).toBeInTheDocument();
    await waitFor(() => expect(apiCalls).toHaveLength(0));
  });
});
