import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { AdminDashboard } from '../components/admin-dashboard';

// chart.js could not be fetched (offline, a blocked chunk).
vi.mock('../chart-loader', () => ({
  loadChart: () => Promise.reject(new Error('offline')),
}));

describe('運営ダッシュボード without chart.js', () => {
  it('says so and opens the tables instead', async () => {
    serveApi({
      '/admin/stats': () =>
        ok({
          weeks: [
            {
              weekStart: '2026-11-23',
              newMembers: 3,
              reservations: 5,
              cancellations: 1,
              reviews: 2,
              chatMessages: 9,
            },
          ],
          generatedAt: '2026-11-25T03:00:00.000Z',
        }),
    });
    renderWithProviders(<AdminDashboard />);
    const members = await screen.findByRole('region', { name: '新規会員' });
    expect(
      await within(members).findByText(
        'グラフを表示できませんでした。下の表でご覧ください。',
      ),
    ).toBeInTheDocument();
    expect(members.querySelector('details')).toHaveAttribute('open');
    expect(within(members).getByRole('table')).toBeVisible();
    expect(within(members).queryByRole('img')).toBeNull();
  });
});
