import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createPro } from '@/testing/factories';
import { apiCalls, ok, serveAll } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ProSearch } from '../components/pro-search';

describe('the pro search and ★', () => {
  it('shows each pro’s ★ average and count, and sorts by rating on the server', async () => {
    const user = userEvent.setup();
    serveAll(() =>
      ok([
        createPro('p1', {
          userName: '評価 あり',
          pro: {
            verified: true,
            ratingAverage: 4.6,
            reviewCount: 12,
            lessonFee: 12000,
          },
        }),
        createPro('p2', { userName: '評価 なし' }),
      ]),
    );
    renderWithProviders(<ProSearch likedIds={new Set()} />);
    const rated = (
      await screen.findByRole('link', { name: '評価 あり' })
    ).closest('article') as HTMLElement;
    expect(within(rated).getByText('★4.6')).toBeInTheDocument();
    expect(rated).toHaveTextContent('（12件）');
    const unrated = screen
      .getByRole('link', { name: '評価 なし' })
      .closest('article') as HTMLElement;
    expect(unrated).toHaveTextContent('口コミまだありません');

    await user.selectOptions(
      screen.getByRole('combobox', { name: '並び順' }),
      '評価の高い順',
    );
    await user.click(screen.getByRole('button', { name: 'この条件で検索' }));
    await vi.waitFor(() =>
      expect(apiCalls.map((c) => c.body)).toContainEqual(
        expect.objectContaining({ sort: 'rating' }),
      ),
    );
  });
});
