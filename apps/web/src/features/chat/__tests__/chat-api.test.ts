import { catchUpAfter } from '@proam/contract';
import { describe, expect, it, vi } from 'vitest';
import type { ChatLesson } from '@proam/contract';
import { makeStore } from '@/app/store';
import { tokenReceived } from '@/features/auth/auth-slice';
import { createLoginResult } from '@/testing/auth';
import {
  createLesson as lesson,
  createMessage as msg,
  messageKey as key,
  messageRange as range,
} from '@/testing/factories';
import { FakeSocket, withFakeSockets } from '@/testing/fake-socket';
import { apiCalls, sentCalls, serveOk as serve } from '@/testing/msw';
import { chatApi } from '../chat-api';
import { TOKEN_EXPIRED_CLOSE } from '../chat-socket';
import { messagesOf, PAGE_SIZE } from '../message-pages';

withFakeSockets();

const conversation = (store: ReturnType<typeof makeStore>, lessonId = 'L1') =>
  chatApi.endpoints.getMessages.select(lessonId)(store.getState());
const keysIn = (store: ReturnType<typeof makeStore>) =>
  messagesOf(conversation(store).data).map((m) => m.sort_key);

/** A logged-in store with the socket open and said hello. */
const connected = async () => {
  const store = makeStore();
  store.dispatch(tokenReceived(createLoginResult()));
  const stream = store.dispatch(chatApi.endpoints.chatStream.initiate('u-1'));
  await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(1));
  const socket = FakeSocket.all[0]!;
  socket.emit({ type: 'hello' });
  return { store, socket, stream };
};

describe('getMessages (infinite query)', () => {
  it('loads the newest page, then older pages before the oldest sort_key, oldest first', async () => {
    serve({
      '/roundLesson/getMessage': (body: { before?: string }) =>
        body.before === key(101)
          ? range(51, 100)
          : body.before === key(51)
            ? range(31, 50)
            : range(101, 150),
    });
    const store = makeStore();
    const query = store.dispatch(chatApi.endpoints.getMessages.initiate('L1'));
    await query;
    const older = () =>
      store.dispatch(
        chatApi.endpoints.getMessages.initiate('L1', { direction: 'forward' }),
      );
    expect(sentCalls()).toEqual([
      {
        path: '/roundLesson/getMessage',
        body: { partitionKey: 'L1', size: PAGE_SIZE },
      },
    ]);
    expect(keysIn(store)).toEqual(range(101, 150).map((m) => m.sort_key));
    expect(conversation(store).hasNextPage).toBe(true);

    await older();
    expect(apiCalls[1]?.body).toEqual({
      partitionKey: 'L1',
      before: key(101),
      size: PAGE_SIZE,
    });
    await older();
    expect(apiCalls[2]?.body).toEqual({
      partitionKey: 'L1',
      before: key(51),
      size: PAGE_SIZE,
    });
    // Ascending across pages; the short page was the last one.
    expect(keysIn(store)).toEqual(range(31, 150).map((m) => m.sort_key));
    expect(conversation(store).hasNextPage).toBe(false);
    query.unsubscribe();
  });

  it('sending adds the answer once, even when the socket echoes it', async () => {
    const mine = msg(3, { sender: 'u-1' });
    serve({
      '/roundLesson/getMessage': () => range(1, 2),
      '/roundLesson/message': () => mine,
    });
    const { store, socket, stream } = await connected();
    const query = store.dispatch(chatApi.endpoints.getMessages.initiate('L1'));
    await query;
    await store.dispatch(
      chatApi.endpoints.sendMessage.initiate({
        partitionKey: 'L1',
        msg: mine.msg,
        sender: 'u-1',
      }),
    );
    socket.emit({ type: 'message', body: mine });
    expect(keysIn(store)).toEqual([key(1), key(2), key(3)]);
    expect(conversation(store).hasNextPage).toBe(false);
    query.unsubscribe();
    stream.unsubscribe();
  });
});

describe('the socket writes into the cache', () => {
  it('adds a new message to the open conversation, the chat list and the unread counts', async () => {
    const list: ChatLesson[] = [
      {
        schedule: lesson('L2'),
        lastMessage: msg(9, { partitionKey: 'L2' }),
        unreadCount: 0,
      },
      { schedule: lesson('L1'), lastMessage: msg(2), unreadCount: 0 },
    ];
    serve({
      '/roundLesson/getMessage': () => range(1, 2),
      '/roundLesson/lessons': () => list,
      '/notification/unstepRoundLesson': () => [],
    });
    const { store, socket, stream } = await connected();
    const query = store.dispatch(chatApi.endpoints.getMessages.initiate('L1'));
    const lessons = store.dispatch(
      chatApi.endpoints.getChatLessons.initiate('u-1'),
    );
    await Promise.all([query, lessons]);
    expect(
      apiCalls.find((s) => s.path === '/roundLesson/lessons')?.body,
    ).toEqual({
      userId: 'u-1',
    });

    socket.emit({ type: 'message', body: msg(10) });
    // Another lesson's message does not land in this conversation.
    socket.emit({
      type: 'message',
      body: msg(5, { partitionKey: 'L9' }),
    });
    expect(keysIn(store)).toEqual([key(1), key(2), key(10)]);
    const chatList = chatApi.endpoints.getChatLessons.select('u-1')(
      store.getState(),
    ).data;
    // Newest conversation first, with one more unread.
    expect(chatList?.map((l) => l.schedule.id)).toEqual(['L1', 'L2']);
    expect(chatList?.[0]).toMatchObject({
      lastMessage: { sort_key: key(10) },
      unreadCount: 1,
    });

    socket.emit({
      type: 'read',
      body: { partitionKey: 'L1', userId: 'u-3', sort_keys: [key(2), key(10)] },
    });
    const [, second, third] = messagesOf(conversation(store).data);
    expect(second?.readBy).toEqual(['u-3']);
    expect(third?.readBy).toEqual(['u-3']);
    query.unsubscribe();
    lessons.unsubscribe();
    stream.unsubscribe();
  });

  it('catches up after a reconnect from 5 s before the newest message loaded', async () => {
    serve({
      '/roundLesson/getMessage': (body: { after?: string }) =>
        body.after ? [msg(3), msg(4)] : range(1, 2),
      '/roundLesson/lessons': () => [],
      '/notification/unstepRoundLesson': () => [],
    });
    const { store, socket, stream } = await connected();
    const query = store.dispatch(chatApi.endpoints.getMessages.initiate('L1'));
    await query;

    socket.drop(TOKEN_EXPIRED_CLOSE);
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    FakeSocket.all[1]!.emit({ type: 'hello' });
    await vi.waitFor(() =>
      expect(keysIn(store)).toEqual([key(1), key(2), key(3), key(4)]),
    );
    expect(apiCalls.find((s) => s.body.after)?.body).toEqual({
      partitionKey: 'L1',
      after: catchUpAfter(key(2)),
      size: 200,
    });
    query.unsubscribe();
    stream.unsubscribe();
  });
});
