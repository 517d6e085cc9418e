import type { Statements } from '@proam/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '@/testing/downloads';
import { setNow } from '@/testing/lessons';
import { apiCalls, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { AdminSales, statementsCsv } from '../components/admin-sales';

const NOVEMBER: Statements = {
  month: '2026-11',
  pros: [
    {
      proId: 'p-1',
      proName: '佐藤 健太',
      lessons: 3,
      participants: 8,
      grossFee: 96000,
      commission: 9600,
      payout: 86400,
    },
    {
      proId: 'p-2',
      proName: '田中, "みどり"',
      lessons: 1,
      participants: 1,
      grossFee: 8001,
      commission: 800,
      payout: 7201,
    },
  ],
};

const { blobs, names } = captureDownloads();
beforeEach(() => {
  setNow('2026-11-25T03:00:00.000Z');
});
afterEach(() => {
  vi.useRealTimers();
});

const serveMonths = () =>
  serveApi({
    '/payment/statements': (body: { month: string }) =>
      ok(body.month === '2026-11' ? NOVEMBER : { month: body.month, pros: [] }),
  });

const decode = async (blob: Blob) => {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  return {
    bytes,
    text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
  };
};

describe('売上・精算', () => {
  it('shows every pro of this month with the totals and a link to each 売上明細', async () => {
    serveMonths();
    renderWithProviders(<AdminSales />);
    const table = await screen.findByRole('table', {
      name: '2026年11月のプロ別売上（2名）',
    });
    expect(apiCalls[0]?.body).toEqual({ month: '2026-11' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      [
        'プロ',
        'レッスン数',
        '参加者数',
        '売上合計',
        '手数料（10%）',
        'お支払い予定額',
        '明細',
      ],
      [
        '佐藤 健太',
        '3件',
        '8名',
        '96,000円',
        '9,600円',
        '86,400円',
        '売上明細（佐藤 健太）',
      ],
      [
        '田中, "みどり"',
        '1件',
        '1名',
        '8,001円',
        '800円',
        '7,201円',
        '売上明細（田中, "みどり"）',
      ],
      ['合計', '4件', '9名', '104,001円', '10,400円', '93,601円', ''],
    ]);
    expect(
      within(table).getByRole('link', { name: '売上明細（佐藤 健太）' }),
    ).toHaveAttribute('href', '/sales?proId=p-1&month=2026-11');
    // This month counts the lessons held so far.
    expect(
      screen.getByText('今月分は、開催済みのレッスンのみを集計しています。'),
    ).toBeInTheDocument();
  });

  it('downloads the month as a UTF-8 CSV with a BOM, Japanese headers and one row per pro', async () => {
    const user = userEvent.setup({ advanceTimers: () => undefined });
    serveMonths();
    renderWithProviders(<AdminSales />);
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'CSVダウンロード' }));
    expect(blobs).toHaveLength(1);
    expect(names).toEqual(['proam-sales-2026-11.csv']);
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const { bytes, text } = await decode(blobs[0]!);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.split('\r\n')).toEqual([
      '\uFEFF対象月,プロID,プロ名,レッスン数,参加者数,売上合計,手数料,お支払い予定額',
      '2026-11,p-1,佐藤 健太,3,8,96000,9600,86400',
      '2026-11,p-2,"田中, ""みどり""",1,1,8001,800,7201',
      '',
    ]);
  });

  it('keeps a name that looks like a formula as text in the CSV', () => {
    const [, row] = statementsCsv({
      month: '2026-11',
      pros: [{ ...NOVEMBER.pros[0]!, proName: '=HYPERLINK("x")' }],
    }).split('\r\n');
    expect(row).toBe(`2026-11,p-1,"'=HYPERLINK(""x"")",3,8,96000,9600,86400`);
  });

  it('says when a month has no sales and offers no CSV', async () => {
    const user = userEvent.setup({ advanceTimers: () => undefined });
    serveMonths();
    renderWithProviders(<AdminSales />, { route: '/?section=sales' });
    await screen.findByRole('table');
    await user.selectOptions(
      screen.getByRole('combobox', { name: '対象月' }),
      '2026-10',
    );
    expect(
      await screen.findByText('2026年10月の売上はありません。'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(
      screen.getByRole('button', { name: 'CSVダウンロード' }),
    ).toBeDisabled();
    expect(apiCalls.at(-1)?.body).toEqual({ month: '2026-10' });
    // A past month is complete: no note about lessons still to come.
    expect(screen.queryByText(/開催済みのレッスンのみ/)).toBeNull();
  });

  it('opens at the month in the address', async () => {
    serveMonths();
    renderWithProviders(<AdminSales />, {
      route: '/?section=sales&month=2026-10',
    });
    expect(
      await screen.findByText('2026年10月の売上はありません。'),
    ).toBeInTheDocument();
    expect(apiCalls[0]?.body).toEqual({ month: '2026-10' });
  });
});
