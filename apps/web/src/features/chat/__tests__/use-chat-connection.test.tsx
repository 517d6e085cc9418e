import { act, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { UnreadLesson } from '@proam/contract';
import { makeStore } from '@/app/store';
import { tokenReceived } from '@/features/auth/auth-slice';
import { createLoginResult } from '@/testing/auth';
import {
  createLesson as lesson,
  createMessage as msg,
} from '@/testing/factories';
import { FakeSocket, withFakeSockets } from '@/testing/fake-socket';
import { apiCalls, serveOk as serve } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { chatApi } from '../chat-api';
import { useChatConnection } from '../use-chat-connection';

withFakeSockets();

const Probe = () => <p>未読{useChatConnection()}</p>;

describe('useChatConnection (the member area’s unread count)', () => {
  it('re-renders the layout only when the count changes (not for the queries’ loading states, a list update or a refetch that keep it) and holds the socket while mounted', async () => {
    const unread: UnreadLesson[] = [
      {
        partitionKey: 'L1',
        schedule: lesson('L1'),
        unreadCount: 2,
        lastMessage: msg(2),
      },
    ];
    serve({ '/notification/unstepRoundLesson': () => unread });
    const store = makeStore();
    store.dispatch(tokenReceived(createLoginResult()));
    // Each commit of the probe: a render of the layout that uses the hook.
    const commits = vi.fn();
    const renders = () => commits.mock.calls.length;
    const { unmount } = renderWithProviders(
      <Profiler id="probe" onRender={commits}>
        <Probe />
      </Profiler>,
      { store },
    );
    await screen.findByText('未読2');
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    // The first render (0) and the loaded count: not one per state of the
    // two queries (loading, loaded) as the whole query results gave.
    expect(renders()).toBe(2);
    const settled = renders();

    // Store updates reach react-redux on the next animation frame (RTK's
    // autoBatchEnhancer): each check below waits for it.
    const nextFrame = () =>
      act(() => new Promise<void>((r) => requestAnimationFrame(() => r())));

    // The list changes, the count does not (the newest message's text).
    act(() => {
      store.dispatch(
        chatApi.util.updateQueryData('getUnread', 'u-1', (list) => {
          list[0]!.lastMessage = msg(2, { msg: '書き直し' });
        }),
      );
    });
    await nextFrame();
    expect(renders()).toBe(settled);

    // The member's own read receipt loads the list again (as the polling
    // does): loading, then the same count.
    const unreadCalls = () =>
      apiCalls.filter((c) => c.path === '/notification/unstepRoundLesson')
        .length;
    act(() =>
      FakeSocket.all[0]!.emit({
        type: 'read',
        body: { partitionKey: 'L1', userId: 'u-1', sort_keys: [] },
      }),
    );
    await vi.waitFor(() => expect(unreadCalls()).toBe(2));
    await vi.waitFor(() =>
      expect(
        chatApi.endpoints.getUnread.select('u-1')(store.getState()).status,
      ).toBe('fulfilled'),
    );
    await nextFrame();
    expect(renders()).toBe(settled);

    // Another member's message in that lesson: one more unread.
    act(() => FakeSocket.all[0]!.emit({ type: 'message', body: msg(3) }));
    await screen.findByText('未読3');
    expect(renders()).toBe(settled + 1);

    // The layout goes (a logout, a page outside the tabs): so does the socket.
    unmount();
    await vi.waitFor(() => expect(FakeSocket.all[0]!.closed).toBe(true));
  });
});
