import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Review } from '@proam/contract';
import { bodiesOf, ng, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { LessonReview } from '../components/lesson-review';

const review = (overrides: Partial<Review> = {}): Review => ({
  id: 'rv-1',
  scheduleId: 'L1',
  proId: 'pro-1',
  userId: 'u-1',
  userName: '山本 拓也',
  rating: 4,
  comment: 'とても分かりやすいレッスンでした。',
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
  ...overrides,
});

/** The pro's reviews as the API keeps them; writes change them. */
const serveReviews = (
  state: { reviews: Review[] },
  more: Parameters<typeof serveApi>[0] = {},
) =>
  serveApi({
    '/review/list': () => ok(state.reviews),
    '/review/create': (body: { rating: number; comment?: string }) => {
      const added = review({
        id: 'rv-new',
        rating: body.rating,
        comment: body.comment,
      });
      state.reviews = [added, ...state.reviews];
      return ok(added);
    },
    '/review/update': (body: {
      id: string;
      rating: number;
      comment: string;
    }) => {
      state.reviews = state.reviews.map((r) =>
        r.id === body.id
          ? { ...r, rating: body.rating, comment: body.comment || undefined }
          : r,
      );
      return ok(state.reviews.find((r) => r.id === body.id));
    },
    '/review/delete': (body: { id: string }) => {
      state.reviews = state.reviews.filter((r) => r.id !== body.id);
      return ok({ deletedCount: 1 });
    },
    ...more,
  });

const renderCard = () =>
  renderWithProviders(
    <LessonReview
      scheduleId="L1"
      proId="pro-1"
      date="2026-11-28"
      userId="u-1"
      lessonLabel="2026年11月28日(土)"
    />,
  );

describe('the review invitation on a lesson card', () => {
  it('invites a review when the member has none, and not for others’ reviews of the lesson', async () => {
    serveReviews({
      reviews: [review({ id: 'other', userId: 'u-2', userName: '他の人' })],
    });
    renderCard();
    expect(
      await screen.findByText('レッスンはいかがでしたか？'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', {
        name: '2026年11月28日(土)のレッスンの口コミを書く',
      }),
    ).toBeInTheDocument();
    expect(bodiesOf('/review/list')[0]).toEqual({
      proId: 'pro-1',
      page: 1,
      size: 50,
    });
  });

  it('asks for a rating first, counts the comment in code points, then sends and shows the review with 編集 and 削除', async () => {
    const user = userEvent.setup();
    serveReviews({ reviews: [] });
    renderCard();
    await user.click(
      await screen.findByRole('button', { name: /口コミを書く$/ }),
    );
    const dialog = screen.getByRole('dialog', { name: '口コミを書く' });
    const stars = within(dialog).getAllByRole('radio');
    expect(stars.map((s) => s.getAttribute('value'))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(
      within(dialog).getByRole('radio', { name: '★3' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(stars[0]).toHaveFocus());

    // Nothing chosen: the rating's message, and nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: '投稿する' }));
    expect(
      within(dialog).getByText('評価を★1〜★5から選んでください。'),
    ).toBeInTheDocument();
    expect(stars[0]).toHaveFocus();
    expect(bodiesOf('/review/create')).toEqual([]);

    // The keyboard chooses: Space takes ★1, the arrows move on.
    await user.keyboard(' ');
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(within(dialog).getByRole('radio', { name: '★4' })).toBeChecked();

    // 1,001 emoji are 1,001 characters for the API (2,002 UTF-16 units).
    const box = within(dialog).getByRole('textbox', { name: /コメント/ });
    await user.click(box);
    await user.paste('😀'.repeat(1001));
    expect(within(dialog).getByText('1001 / 1000文字')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '投稿する' }));
    expect(
      within(dialog).getByText('コメントは1000文字以内で入力してください。'),
    ).toBeInTheDocument();
    expect(box).toHaveFocus();

    await user.clear(box);
    await user.type(box, '  丁寧に教えていただきました。  ');
    await user.click(within(dialog).getByRole('button', { name: '投稿する' }));

    const notice = await screen.findByText('口コミを投稿しました。');
    await waitFor(() => expect(notice).toHaveFocus());
    expect(bodiesOf('/review/create')).toEqual([
      { scheduleId: 'L1', rating: 4, comment: '丁寧に教えていただきました。' },
    ]);
    expect(await screen.findByText('あなたの口コミ')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: '評価 ★4（5段階）' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('丁寧に教えていただきました。'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '2026年11月28日(土)の口コミを編集' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '2026年11月28日(土)の口コミを削除' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('レッスンはいかがでしたか？')).toBeNull();
  });

  it('edits the review from what it says, and deletes it after a confirmation', async () => {
    const user = userEvent.setup();
    serveReviews({ reviews: [review()] });
    renderCard();
    await user.click(
      await screen.findByRole('button', { name: /口コミを編集$/ }),
    );
    const dialog = screen.getByRole('dialog', { name: '口コミを編集' });
    expect(within(dialog).getByRole('radio', { name: '★4' })).toBeChecked();
    const box = within(dialog).getByRole('textbox', { name: /コメント/ });
    expect(box).toHaveValue('とても分かりやすいレッスンでした。');
    await user.click(within(dialog).getByRole('radio', { name: '★2' }));
    await user.clear(box);
    await user.click(within(dialog).getByRole('button', { name: '保存する' }));
    await screen.findByText('口コミを更新しました。');
    expect(bodiesOf('/review/update')).toEqual([
      { id: 'rv-1', rating: 2, comment: '' },
    ]);
    await screen.findByRole('img', { name: '評価 ★2（5段階）' });

    await user.click(screen.getByRole('button', { name: /口コミを削除$/ }));
    const confirm = screen.getByRole('dialog', { name: '口コミの削除' });
    await user.click(within(confirm).getByRole('button', { name: '削除する' }));
    await screen.findByText('口コミを削除しました。');
    expect(bodiesOf('/review/delete')).toEqual([{ id: 'rv-1' }]);
    expect(
      await screen.findByRole('button', { name: /口コミを書く$/ }),
    ).toBeInTheDocument();
  });

  it('explains a second review of the lesson (Conflict) in the dialog and keeps the choice', async () => {
    const user = userEvent.setup();
    serveReviews({ reviews: [] }, { '/review/create': () => ng('Conflict') });
    const { store } = renderCard();
    await user.click(
      await screen.findByRole('button', { name: /口コミを書く$/ }),
    );
    const dialog = screen.getByRole('dialog', { name: '口コミを書く' });
    await user.click(within(dialog).getByRole('radio', { name: '★5' }));
    await user.click(within(dialog).getByRole('button', { name: '投稿する' }));
    expect(
      await within(dialog).findByText(
        'このレッスンの口コミはすでに投稿済みです。',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: '★5' })).toBeChecked();
    expect(store.getState().ui.alerts).toEqual([]);
  });

  it('reads older pages only while they may hold the review (not older than the lesson day)', async () => {
    const page = (n: number, createdAt: string) =>
      Array.from({ length: 50 }, (_, i) =>
        review({
          id: `p${n}-${i}`,
          scheduleId: `S${n}-${i}`,
          userId: 'u-9',
          createdAt,
        }),
      );
    serveApi({
      '/review/list': (body: { page: number }) =>
        ok(
          body.page === 1
            ? page(1, '2026-12-05T00:00:00.000Z')
            : page(2, '2026-11-27T00:00:00.000Z'),
        ),
    });
    renderCard();
    await screen.findByRole('button', { name: /口コミを書く$/ });
    // Page 2 ends before 11月28日 (Japan time): no page 3.
    expect(bodiesOf('/review/list').map((b) => b.page)).toEqual([1, 2]);
  });
});
