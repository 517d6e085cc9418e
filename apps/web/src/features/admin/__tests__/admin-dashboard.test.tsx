import type { AdminStats } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '@/testing/downloads';
import { apiCalls, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { AdminDashboard } from '../components/admin-dashboard';
import { statsCsv } from '../stats-csv';

// jsdom draws nothing on a canvas: a stand-in Chart records what it was given.
const charts = vi.hoisted(
  () => [] as { type: string; labels: string[]; data: number[][] }[],
);
vi.mock('chart.js', () => {
  class Chart {
    static register = vi.fn();
    constructor(
      _canvas: unknown,
      config: {
        type: string;
        data: { labels: string[]; datasets: { data: number[] }[] };
      },
    ) {
      charts.push({
        type: config.type,
        labels: config.data.labels,
        data: config.data.datasets.map((d) => d.data),
      });
    }
    destroy = vi.fn();
  }
  const part = {};
  return {
    Chart,
    BarController: part,
    BarElement: part,
    LineController: part,
    LineElement: part,
    PointElement: part,
    CategoryScale: part,
    LinearScale: part,
    Legend: part,
    Tooltip: part,
  };
});

const week = (weekStart: string, n: number) => ({
  weekStart,
  newMembers: n,
  reservations: n * 2,
  cancellations: n % 3,
  reviews: n + 1,
  chatMessages: n * 10,
});

const STATS: AdminStats = {
  weeks: [
    '2026-09-07',
    '2026-09-14',
    '2026-09-21',
    '2026-09-28',
    '2026-10-05',
    '2026-10-12',
    '2026-10-19',
    '2026-10-26',
    '2026-11-02',
    '2026-11-09',
    '2026-11-16',
    '2026-11-23',
  ].map((d, i) => week(d, i + 1)),
  generatedAt: '2026-11-25T03:00:00.000Z',
};

const { blobs } = captureDownloads();
beforeEach(() => {
  charts.length = 0;
});

describe('運営ダッシュボード', () => {
  it('asks for 12 weeks and shows this week, the charts and the tables from the API', async () => {
    serveApi({ '/admin/stats': () => ok(STATS) });
    renderWithProviders(<AdminDashboard />);
    const members = await screen.findByRole('region', { name: '新規会員' });
    expect(apiCalls[0]?.body).toEqual({ weeks: 12 });
    // This week (the last row) at a glance, last week beside it.
    const figure = within(members).getByRole('definition');
    expect(figure).toHaveTextContent('12');
    expect(figure).toHaveTextContent('先週 11');
    expect(figure).toHaveTextContent('12週計 78');
    const bookings = screen.getByRole('region', { name: '予約とキャンセル' });
    expect(within(bookings).getByText('予約（今週）')).toBeInTheDocument();
    expect(
      within(bookings).getByText('キャンセル（今週）'),
    ).toBeInTheDocument();

    // The charts, drawn by chart.js from the same rows.
    await waitFor(() => expect(charts).toHaveLength(4));
    expect(charts[0]).toEqual({
      type: 'bar',
      labels: [
        '9/7',
        '9/14',
        '9/21',
        '9/28',
        '10/5',
        '10/12',
        '10/19',
        '10/26',
        '11/2',
        '11/9',
        '11/16',
        '11/23',
      ],
      data: [STATS.weeks.map((w) => w.newMembers)],
    });
    expect(charts[1]!.data).toEqual([
      STATS.weeks.map((w) => w.reservations),
      STATS.weeks.map((w) => w.cancellations),
    ]);
    expect(charts[3]!.type).toBe('line');
    expect(
      within(members).getByRole('img', { name: /新規会員の週ごとの推移/ }),
    ).toBeInTheDocument();

    // The table alternative: every week, oldest first.
    const table = within(members).getByRole('table', { name: /新規会員/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(13);
    expect(rows[1]).toHaveTextContent('2026年9月7日(月)〜9/13');
    expect(rows[1]).toHaveTextContent('1');
    expect(rows[12]).toHaveTextContent('2026年11月23日(月)〜11/29');

    // Revenue is in 売上・精算, one link away.
    expect(screen.getByRole('link', { name: '売上・精算' })).toHaveAttribute(
      'href',
      '/?section=sales',
    );
  });

  it('downloads the figures as a UTF-8 CSV with a BOM and Japanese headers', async () => {
    const user = userEvent.setup();
    serveApi({ '/admin/stats': () => ok(STATS) });
    renderWithProviders(<AdminDashboard />);
    await user.click(
      await screen.findByRole('button', { name: '全項目をCSVでダウンロード' }),
    );
    expect(blobs).toHaveLength(1);
    const blob = blobs[0]!;
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('\uFEFF週,新規会員,予約,キャンセル,口コミ,チャット');
    expect(lines[1]).toBe('2026-09-07,1,2,1,2,10');
    expect(lines[12]).toBe('2026-11-23,12,24,0,13,120');
    expect(lines).toHaveLength(14);

    // One chart's CSV has its own columns only.
    const bookings = screen.getByRole('region', { name: '予約とキャンセル' });
    await user.click(
      within(bookings).getByRole('button', { name: /CSVをダウンロード/ }),
    );
    const one = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
      new Uint8Array(await blobs[1]!.arrayBuffer()),
    );
    expect(one.split('\r\n')[0]).toBe('\uFEFF週,予約,キャンセル');
  });

  it('quotes cells that need it', () => {
    expect(statsCsv([], [{ key: 'reviews', label: '口コミ,件数' }])).toBe(
      '\uFEFF週,"口コミ,件数"\r\n',
    );
  });
});
