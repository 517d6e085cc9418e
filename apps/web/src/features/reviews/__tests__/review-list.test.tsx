import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Review } from '@proam/contract';
import { apiCalls, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { RatingSummary } from '../components/rating-summary';
import { ReviewList } from '../components/review-list';
import { REVIEW_PAGE_SIZE } from '../reviews-api';

const review = (n: number, overrides: Partial<Review> = {}): Review => ({
  id: `rv-${n}`,
  scheduleId: `L${n}`,
  proId: 'pro-1',
  userId: `u-${n}`,
  userName: `会員 ${n}`,
  rating: 5,
  comment: `口コミ ${n}`,
  createdAt: `2026-11-${String(28 - (n % 28)).padStart(2, '0')}T01:00:00.000Z`,
  updatedAt: '2026-11-28T01:00:00.000Z',
  ...overrides,
});

/** 12 reviews newest first; the first has the pro's reply. */
const ALL = Array.from({ length: 12 }, (_, i) =>
  review(
    i + 1,
    i === 0 ? { reply: 'ありがとうございました！', rating: 4 } : {},
  ),
);

/** /review/list and /review/reply over a copy of `initial`; replies are kept. */
const serveList = (initial: Review[] = ALL) => {
  let reviews = initial;
  serveApi({
    '/review/list': (body: { page: number; size: number }) =>
      ok(reviews.slice((body.page - 1) * body.size, body.page * body.size)),
    '/review/reply': (body: { id: string; reply: string }) => {
      reviews = reviews.map((r) =>
        r.id === body.id ? { ...r, reply: body.reply } : r,
      );
      return ok(reviews.find((r) => r.id === body.id));
    },
  });
};

describe('the ★ summary', () => {
  it('shows the average to one decimal and the count', () => {
    renderWithProviders(
      <RatingSummary pro={{ ratingAverage: 4.6, reviewCount: 12 }} />,
    );
    expect(screen.getByText('★4.6')).toBeInTheDocument();
    expect(screen.getByText('口コミ 12件')).toBeInTheDocument();
  });

  it('says so when there is no review yet (a whole number keeps its decimal)', () => {
    const { rerender } = renderWithProviders(
      <RatingSummary pro={{ ratingAverage: null, reviewCount: 0 }} />,
    );
    expect(screen.getByText('口コミはまだありません')).toBeInTheDocument();
    rerender(<RatingSummary pro={{ ratingAverage: 4, reviewCount: 1 }} />);
    expect(screen.getByText('★4.0')).toBeInTheDocument();
  });
});

describe('the reviews of a pro', () => {
  it('lists them newest first with the replies, and もっと見る loads the next page', async () => {
    const user = userEvent.setup();
    serveList();
    renderWithProviders(
      <ReviewList
        proId="pro-1"
        reviewActions={(r) => <button type="button">{r.id}を通報</button>}
      />,
    );
    const list = await screen.findByRole('list');
    let items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(REVIEW_PAGE_SIZE);
    expect(items[0]).toHaveTextContent('会員 1さん');
    expect(items[1]).toHaveTextContent('会員 2さん');
    const first = items[0]!;
    expect(
      within(first).getByRole('img', { name: '評価 ★4（5段階）' }),
    ).toBeInTheDocument();
    expect(within(first).getByText('プロからの返信')).toBeInTheDocument();
    expect(
      within(first).getByText('ありがとうございました！'),
    ).toBeInTheDocument();
    expect(
      within(first).getByRole('button', { name: 'rv-1を通報' }),
    ).toBeInTheDocument();
    // Nobody but the pro gets a reply box.
    expect(screen.queryByRole('button', { name: /返信する/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'もっと見る' }));
    await screen.findByText('口コミ 12');
    items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items).toHaveLength(12);
    expect(screen.queryByRole('button', { name: 'もっと見る' })).toBeNull();
    expect(
      apiCalls.filter((c) => c.path === '/review/list').map((c) => c.body),
    ).toEqual([
      { proId: 'pro-1', page: 1, size: REVIEW_PAGE_SIZE },
      { proId: 'pro-1', page: 2, size: REVIEW_PAGE_SIZE },
    ]);
  });

  it('says when there is none', async () => {
    serveList([]);
    renderWithProviders(<ReviewList proId="pro-1" />);
    expect(
      await screen.findByText('口コミはまだありません。'),
    ).toBeInTheDocument();
  });

  it('lets the pro reply, requires text, and replying again starts from the reply', async () => {
    const user = userEvent.setup();
    serveList(ALL.slice(0, 2));
    renderWithProviders(<ReviewList proId="pro-1" canReply />);
    const second = (await screen.findAllByRole('listitem'))[1]!;
    await user.click(
      within(second).getByRole('button', {
        name: '会員 2さんの口コミに返信する',
      }),
    );
    const box = within(second).getByRole('textbox', {
      name: /会員 2さんへの返信/,
    });
    expect(box).toHaveFocus();
    await user.click(within(second).getByRole('button', { name: '返信する' }));
    expect(
      within(second).getByText('返信を入力してください。'),
    ).toBeInTheDocument();
    await user.type(box, 'ご参加ありがとうございました。');
    await user.click(within(second).getByRole('button', { name: '返信する' }));
    expect(
      await within(second).findByText('返信を送信しました。'),
    ).toBeInTheDocument();
    expect(apiCalls.find((c) => c.path === '/review/reply')?.body).toEqual({
      id: 'rv-2',
      reply: 'ご参加ありがとうございました。',
    });

    // The first one has a reply: editing it says it replaces it.
    const first = screen.getAllByRole('listitem')[0]!;
    await user.click(
      within(first).getByRole('button', {
        name: '会員 1さんの口コミに返信を編集',
      }),
    );
    expect(
      within(first).getByRole('textbox', { name: /会員 1さんへの返信/ }),
    ).toHaveValue('ありがとうございました！');
    expect(
      within(first).getByText('送信すると前の返信と置き換わります。'),
    ).toBeInTheDocument();
  });

  it('puts the focus on the posted reply and says it was sent', async () => {
    const user = userEvent.setup();
    serveList(ALL.slice(0, 2));
    renderWithProviders(<ReviewList proId="pro-1" canReply />);
    const [first, second] = await screen.findAllByRole('listitem');

    await user.click(
      within(second!).getByRole('button', {
        name: '会員 2さんの口コミに返信する',
      }),
    );
    // The status line is there before the reply, so its message is announced.
    const status = within(second!).getByRole('status');
    expect(status).toBeEmptyDOMElement();
    await user.type(
      within(second!).getByRole('textbox', { name: /会員 2さんへの返信/ }),
      'ご参加ありがとうございました。',
    );
    await user.click(within(second!).getByRole('button', { name: '返信する' }));

    const reply = await waitFor(() => {
      const focused = document.activeElement as HTMLElement;
      expect(second).toContainElement(focused);
      expect(focused).toHaveTextContent(
        'プロからの返信ご参加ありがとうございました。',
      );
      return focused;
    });
    expect(status).toHaveTextContent('返信を送信しました。');

    // A new reply in place of the old one: the focus is on the new text.
    await user.click(
      within(first!).getByRole('button', {
        name: '会員 1さんの口コミに返信を編集',
      }),
    );
    const box = within(first!).getByRole('textbox', {
      name: /会員 1さんへの返信/,
    });
    await user.clear(box);
    await user.type(box, 'またお待ちしています。');
    await user.click(within(first!).getByRole('button', { name: '返信する' }));
    await waitFor(() =>
      expect(document.activeElement).toHaveTextContent(
        'プロからの返信またお待ちしています。',
      ),
    );
    expect(first).toContainElement(document.activeElement as HTMLElement);
    expect(reply).toHaveTextContent('ご参加ありがとうございました。');
  });
});
