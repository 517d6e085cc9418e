import type { News } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { storeLoggedInAs } from '@/testing/auth';
import { bodiesOf, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import AdminRoute from '../admin';

const item = (n: number): News => ({
  id: `n${n}`,
  title: `お知らせ${n}`,
  body: `本文${n}`,
  publishedAt: '2026-11-01T01:00:00.000Z',
});

/** The admin screen's お知らせ section, `/news/adminList` paging `count` items as the API does. */
const renderNews = (count: number) => {
  const news = Array.from({ length: count }, (_, i) => item(i + 1));
  serveApi(
    {
      '/news/adminList': ({
        page = 1,
        size = 50,
      }: {
        page?: number;
        size?: number;
      }) => ok(news.slice((page - 1) * size, page * size)),
    },
    () => ok([]),
  );
  renderWithProviders(<AdminRoute />, {
    route: '/?section=news',
    store: storeLoggedInAs({ type: 'admin' }),
  });
};

const editOf = (title: string) =>
  within(screen.getByRole('group', { name: `${title} の操作` })).getByRole(
    'button',
    { name: '編集' },
  );

afterEach(() => {
  localStorage.clear();
});

describe('お知らせ (admin)', () => {
  it('reads older items with もっと見る, without claiming to show them all', async () => {
    const user = userEvent.setup();
    renderNews(60);
    expect(await screen.findByText('お知らせ50')).toBeInTheDocument();
    expect(screen.queryByText('お知らせ51')).toBeNull();
    expect(document.body).not.toHaveTextContent('すべて表示');
    expect(bodiesOf('/news/adminList')).toEqual([{ page: 1, size: 50 }]);
    await user.click(screen.getByRole('button', { name: 'もっと見る' }));
    expect(await screen.findByText('お知らせ60')).toBeInTheDocument();
    expect(bodiesOf('/news/adminList').at(-1)).toEqual({ page: 2, size: 50 });
    expect(screen.queryByRole('button', { name: 'もっと見る' })).toBeNull();
  });

  it('gives the focus back to the 編集 or お知らせを作成 that opened the editor on キャンセル', async () => {
    const user = userEvent.setup();
    renderNews(3);
    await screen.findByText('お知らせ2');
    await user.click(editOf('お知らせ2'));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2 })).toHaveFocus(),
    );
    await user.click(screen.getByRole('button', { name: 'キャンセル' }));
    expect(editOf('お知らせ2')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'お知らせを作成' }));
    await user.click(screen.getByRole('button', { name: 'キャンセル' }));
    expect(
      screen.getByRole('button', { name: 'お知らせを作成' }),
    ).toHaveFocus();
  });
});
