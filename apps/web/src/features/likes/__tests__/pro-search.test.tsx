import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiCalls, ok, serveAll } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ProSearch } from '../components/pro-search';

/** The bodies of the searches sent. */
const searches = () => apiCalls.map((c) => c.body);
beforeEach(() => {
  serveAll(() => ok([]));
});

describe('pro search form', () => {
  it('explains a wrong fee range in Japanese, focuses it and searches nothing new', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ProSearch likedIds={new Set()} />);
    await screen.findByText(/条件に合うプロが見つかりませんでした/);
    const sent = searches().length;

    const min = screen.getByRole('textbox', { name: '下限' });
    const max = screen.getByRole('textbox', { name: '上限' });
    await user.type(min, '20000');
    await user.type(max, '５０００');
    await user.click(screen.getByRole('button', { name: 'この条件で検索' }));
    expect(max).toHaveAccessibleDescription(
      '上限は下限以上の金額にしてください。',
    );
    expect(max).toHaveFocus();

    await user.clear(min);
    await user.type(min, '10000001');
    await user.click(screen.getByRole('button', { name: 'この条件で検索' }));
    expect(min).toHaveAccessibleDescription(
      '下限は0〜10,000,000の半角数字で入力してください。',
    );
    expect(min).toHaveFocus();
    expect(searches()).toHaveLength(sent);

    // Fixing the range clears both messages and searches with it.
    await user.clear(min);
    await user.type(min, '３０００');
    expect(min).not.toHaveAttribute('aria-invalid');
    expect(max).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'この条件で検索' }));
    await vi.waitFor(() =>
      expect(searches()).toContainEqual(
        expect.objectContaining({ feeMin: 3000, feeMax: 5000 }),
      ),
    );

    await user.click(screen.getByRole('button', { name: '条件をクリア' }));
    expect(min).toHaveValue('');
    expect(max).toHaveValue('');
  });
});
