import type { Like, User } from '@proam/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import { tokenReceived } from '@/features/auth/auth-slice';
import {
  userSlice,
  usersCleared,
  usersRetrieved,
  userUpdated,
  selectAllUsers,
} from '@/features/profile/user-slice';
import { createLoginResult } from '@/testing/auth';
import {
  jsonResponse,
  okEnvelope,
  renderWithProviders,
} from '@/testing/render';
import { ProSearch } from '../components/pro-search';
import {
  likeAdded,
  likeRemoved,
  likeSlice,
  likesCleared,
  likesLoaded,
} from '../like-slice';
import { useLikeToggle } from '../use-like-toggle';

const like = (likeUserId: string, likeId = `l-${likeUserId}`): Like => ({
  likeId,
  userType: 'amature',
  userId: 'u-1',
  likeUserId,
  createdAt: '2026-11-01T00:00:00.000Z',
});

const pro = (id: string, overrides: Partial<User> = {}): User => ({
  id,
  type: 'pro',
  userName: `プロ ${id}`,
  area: '神奈川県',
  imageInfo: [],
  pro: { lessonFee: 12000 },
  likeCount: 2,
  createdAt: '2026-10-01T00:00:00.000Z',
  ...overrides,
});

describe('like slice', () => {
  const reduce = likeSlice.reducer;
  it('loading sets likeCount to the list length; create adds 1; delete subtracts 1', () => {
    let s = reduce(undefined, likesLoaded([like('p1'), like('p2')]));
    expect(s.likeCount).toBe(2);
    expect(s.ids).toEqual(['l-p1', 'l-p2']);
    s = reduce(s, likeAdded(like('p3')));
    expect(s.likeCount).toBe(3);
    s = reduce(s, likeAdded(like('p3')));
    expect(s.likeCount).toBe(3);
    s = reduce(s, likeRemoved('p1'));
    expect(s.likeCount).toBe(2);
    expect(s.ids).toEqual(['l-p2', 'l-p3']);
    s = reduce(s, likeRemoved('nobody'));
    expect(s.likeCount).toBe(2);
    s = reduce(s, likesCleared());
    expect(s).toEqual({ ids: [], entities: {}, likeCount: 0 });
  });
});

describe('user slice', () => {
  const reduce = userSlice.reducer;
  it('retrieve inserts or updates, update modifies, clear removes all', () => {
    let s = reduce(undefined, usersRetrieved([pro('p1'), pro('p2')]));
    expect(s.ids).toEqual(['p1', 'p2']);
    s = reduce(s, usersRetrieved([pro('p1', { userName: '新しい名前' })]));
    expect(s.entities.p1?.userName).toBe('新しい名前');
    expect(s.ids).toHaveLength(2);
    s = reduce(s, userUpdated({ id: 'p2', changes: { likeCount: 9 } }));
    expect(s.entities.p2?.likeCount).toBe(9);
    expect(selectAllUsers({ user: s })).toHaveLength(2);
    s = reduce(s, usersCleared());
    expect(s.ids).toEqual([]);
  });
});

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  localStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const Search = () => {
  const { likedIds, toggle } = useLikeToggle();
  return <ProSearch likedIds={likedIds} onToggle={toggle} />;
};

const route = (handlers: Record<string, () => Response>) =>
  fetchMock.mockImplementation(async (input) => {
    const path = new URL((input as Request).url).pathname.replace(/^\/api/, '');
    const handler = handlers[path];
    return handler
      ? handler()
      : jsonResponse(
          { status: 'NG', code: 'NotFound', reqId: '', msg: 'x' },
          { status: 404 },
        );
  });

describe('optimistic like toggle', () => {
  it('presses at once, then restores the button and the count when the server refuses', async () => {
    const user = userEvent.setup();
    const store = makeStore();
    store.dispatch(tokenReceived(createLoginResult()));
    let release: (r: Response) => void = () => undefined;
    route({
      '/user/like': () => okEnvelope([]),
      '/users/pro/condition': () => okEnvelope([pro('p1')]),
    });
    renderWithProviders(<Search />, { store });
    const toggle = await screen.findByRole('button', {
      name: 'いいね（プロ p1さん）',
    });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    fetchMock.mockImplementationOnce(
      () => new Promise<Response>((resolve) => (release = resolve)),
    );
    await user.click(toggle);
    // Before the server answers.
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('like-count')).toHaveTextContent('3');

    release(
      jsonResponse(
        {
          status: 'NG',
          code: 'InternalError',
          reqId: 'r',
          msg: '失敗しました',
        },
        { status: 500 },
      ),
    );
    await waitFor(() =>
      expect(toggle).toHaveAttribute('aria-pressed', 'false'),
    );
    expect(screen.getByTestId('like-count')).toHaveTextContent('2');
    expect(store.getState().like.likeCount).toBe(0);
    expect(store.getState().ui.alerts).toHaveLength(1);
  });

  it('keeps the like and counts it in the like slice when the server agrees', async () => {
    const user = userEvent.setup();
    const store = makeStore();
    store.dispatch(tokenReceived(createLoginResult()));
    route({
      '/user/like': () => okEnvelope([]),
      '/users/pro/condition': () => okEnvelope([pro('p1')]),
      '/user/likeCreate': () => okEnvelope(like('p1')),
    });
    renderWithProviders(<Search />, { store });
    const toggle = await screen.findByRole('button', {
      name: 'いいね（プロ p1さん）',
    });
    await user.click(toggle);
    await waitFor(() => expect(store.getState().like.likeCount).toBe(1));
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('like-count')).toHaveTextContent('3');
    const sent = fetchMock.mock.calls
      .map((c) => c[0] as Request)
      .find((r) => r.url.endsWith('/user/likeCreate'));
    expect(await sent?.json()).toEqual({ userId: 'u-1', likeUserId: 'p1' });
  });
});
