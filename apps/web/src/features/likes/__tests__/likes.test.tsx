import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { tokenReceived } from '@/features/auth/auth-slice';
import { createLoginResult } from '@/testing/auth';
import { createLike as like, createPro as pro } from '@/testing/factories';
import {
  answerOnce,
  apiCalls,
  bodyOf,
  deferred,
  ng,
  ok,
  serveApi,
} from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ProSearch } from '../components/pro-search';
import { likesApi } from '../likes-api';
import { useLikeToggle } from '../use-like-toggle';

/** The member's likes as the cache holds them (the seed's like list; its length is likeCount). */
const givenLikes = (store: ReturnType<typeof makeStore>) =>
  likesApi.endpoints.getGivenLikes.select({
    userType: 'amature',
    userId: 'u-1',
  })(store.getState()).data;

beforeEach(() => {
  localStorage.clear();
});

const Search = () => {
  const { likedIds, toggle } = useLikeToggle();
  return <ProSearch likedIds={likedIds} onToggle={toggle} />;
};

describe('optimistic like toggle', () => {
  it('presses at once, then restores the button and the count when the server refuses', async () => {
    const user = userEvent.setup();
    const store = makeStore();
    store.dispatch(tokenReceived(createLoginResult()));
    const refusal = deferred();
    serveApi({
      '/user/like': () => ok([]),
      '/users/pro/condition': () => ok([pro('p1')]),
    });
    renderWithProviders(<Search />, { store });
    const toggle = await screen.findByRole('button', {
      name: 'いいね（プロ p1さん）',
    });
    await waitFor(() => expect(apiCalls).toHaveLength(2));
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    answerOnce(refusal.reply);
    await user.click(toggle);
    // Before the server answers.
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('like-count')).toHaveTextContent('3');

    refusal.release(ng('InternalError', { msg: '失敗しました' }));
    await waitFor(() =>
      expect(toggle).toHaveAttribute('aria-pressed', 'false'),
    );
    expect(screen.getByTestId('like-count')).toHaveTextContent('2');
    expect(givenLikes(store)).toEqual([]);
    expect(store.getState().ui.alerts).toHaveLength(1);
  });

  it('keeps the like, with the id the server gave it, when the server agrees', async () => {
    const user = userEvent.setup();
    const store = makeStore();
    store.dispatch(tokenReceived(createLoginResult()));
    serveApi({
      '/user/like': () => ok([]),
      '/users/pro/condition': () => ok([pro('p1')]),
      '/user/likeCreate': () => ok(like('p1')),
    });
    renderWithProviders(<Search />, { store });
    const toggle = await screen.findByRole('button', {
      name: 'いいね（プロ p1さん）',
    });
    await user.click(toggle);
    await waitFor(() => expect(givenLikes(store)).toEqual([like('p1')]));
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('like-count')).toHaveTextContent('3');
    expect(await bodyOf('/user/likeCreate')).toEqual({
      userId: 'u-1',
      likeUserId: 'p1',
    });
  });
});
