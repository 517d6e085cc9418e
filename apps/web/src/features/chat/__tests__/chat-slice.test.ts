import { describe, expect, it } from 'vitest';
import type { Message } from '@proam/contract';
import { makeStore } from '@/app/store';
import {
  chatCleared,
  messageReceived,
  messagesLoaded,
  messagesMarkedRead,
  messageSent,
  readReceived,
  selectChatHasMore,
  selectChatMessages,
} from '../chat-slice';

let n = 0;
const msg = (sort_key: string, over: Partial<Message> = {}): Message => ({
  partitionKey: 'L1',
  sort_key,
  msg: `メッセージ${++n}`,
  sender: 'u-2',
  createTime: '2026-11-22T01:00:00.000Z',
  readBy: [],
  ...over,
});

const keys = (store: ReturnType<typeof makeStore>) =>
  selectChatMessages(store.getState()).map((m) => m.sort_key);

describe('chat slice (keyed by sort_key)', () => {
  it('loading replaces the list; older pages and catch-ups merge in order', () => {
    const store = makeStore();
    store.dispatch(
      messagesLoaded({
        partitionKey: 'L0',
        messages: [msg('01A', { partitionKey: 'L0' })],
        mode: 'replace',
      }),
    );
    store.dispatch(
      messagesLoaded({
        partitionKey: 'L1',
        messages: [msg('01C'), msg('01D')],
        mode: 'replace',
        full: true,
      }),
    );
    expect(keys(store)).toEqual(['01C', '01D']);
    expect(selectChatHasMore(store.getState())).toBe(true);
    store.dispatch(
      messagesLoaded({
        partitionKey: 'L1',
        messages: [msg('01B')],
        mode: 'older',
      }),
    );
    store.dispatch(
      messagesLoaded({
        partitionKey: 'L1',
        messages: [msg('01E')],
        mode: 'newer',
      }),
    );
    expect(keys(store)).toEqual(['01B', '01C', '01D', '01E']);
    expect(selectChatHasMore(store.getState())).toBe(false);
    // A page for another lesson does not leak in.
    store.dispatch(
      messagesLoaded({
        partitionKey: 'L9',
        messages: [msg('01Z', { partitionKey: 'L9' })],
        mode: 'older',
      }),
    );
    expect(keys(store)).not.toContain('01Z');
  });

  it('sending adds the returned message; socket messages add once; clear empties', () => {
    const store = makeStore();
    store.dispatch(
      messagesLoaded({
        partitionKey: 'L1',
        messages: [msg('01A')],
        mode: 'replace',
      }),
    );
    const mine = msg('01B', { sender: 'u-1' });
    store.dispatch(messageSent(mine));
    // The socket echoes the sender's own message: still one entry.
    store.dispatch(messageReceived(mine));
    store.dispatch(messageReceived(msg('01C')));
    store.dispatch(messageReceived(msg('01X', { partitionKey: 'other' })));
    expect(keys(store)).toEqual(['01A', '01B', '01C']);
    store.dispatch(chatCleared());
    expect(keys(store)).toEqual([]);
  });

  it('records read receipts and own reads in readBy without duplicates', () => {
    const store = makeStore();
    store.dispatch(
      messagesLoaded({
        partitionKey: 'L1',
        messages: [msg('01A', { sender: 'u-1' }), msg('01B')],
        mode: 'replace',
      }),
    );
    const receipt = { partitionKey: 'L1', userId: 'u-2', sort_keys: ['01A'] };
    store.dispatch(readReceived(receipt));
    store.dispatch(readReceived(receipt));
    store.dispatch(messagesMarkedRead({ userId: 'u-1', sortKeys: ['01B'] }));
    const [a, b] = selectChatMessages(store.getState());
    expect(a?.readBy).toEqual(['u-2']);
    expect(b?.readBy).toEqual(['u-1']);
  });
});
