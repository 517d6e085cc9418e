import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemberTabBar } from '@/components/member-tab-bar';
import { storeLoggedInAs } from '@/testing/auth';
import { apiCalls, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import AdminRoute from '../admin';

beforeEach(() => {
  serveApi(
    {
      '/admin/stats': () =>
        ok({ weeks: [], generatedAt: '2026-11-25T00:00:00.000Z' }),
    },
    () => ok([]),
  );
});
afterEach(() => {
  localStorage.clear();
});

describe('admin route guard', () => {
  it.each(['amature', 'pro'] as const)(
    'shows 権限がありません to a logged-in %s and asks the server nothing',
    async (type) => {
      renderWithProviders(<AdminRoute />, { store: storeLoggedInAs({ type }) });
      expect(
        await screen.findByRole('heading', {
          level: 1,
          name: '権限がありません',
        }),
      ).toBeInTheDocument();
      expect(screen.queryByRole('tablist')).toBeNull();
      expect(document.title).toMatch(/^権限がありません/);
      expect(apiCalls).toHaveLength(0);
    },
  );

  it('shows the admin sections to an admin', async () => {
    renderWithProviders(<AdminRoute />, {
      store: storeLoggedInAs({ type: 'admin' }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: '管理' }),
    ).toBeInTheDocument();
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual([
      'ダッシュボード',
      '会員管理',
      '通報',
      '売上・精算',
      '返金',
      'お知らせ',
      'お問い合わせ',
      '操作履歴',
      'メール送信状況',
    ]);
    // The operations dashboard comes first.
    expect(screen.getByRole('tab', { name: 'ダッシュボード' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(
      await screen.findByRole('link', { name: '売上・精算' }),
    ).toHaveAttribute('href', '/?section=sales');
  });

  it('adds the 管理 tab to the tab bar only when asked (admins)', () => {
    const { unmount } = renderWithProviders(<MemberTabBar />);
    expect(screen.queryByRole('link', { name: '管理' })).toBeNull();
    unmount();
    renderWithProviders(<MemberTabBar showAdmin />);
    expect(screen.getByRole('link', { name: '管理' })).toHaveAttribute(
      'href',
      '/tabs/admin',
    );
  });
});
