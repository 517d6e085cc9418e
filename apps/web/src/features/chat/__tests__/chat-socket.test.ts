import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '@/testing/fake-socket';
import {
  backoffDelay,
  chatSocketUrl,
  connectChatSocket,
  SESSION_ENDED_CLOSE,
} from '../chat-socket';

afterEach(() => {
  FakeSocket.all = [];
  vi.useRealTimers();
});

describe('chat socket', () => {
  it('builds ws:// or wss:// from the API base', () => {
    expect(chatSocketUrl('http://localhost:3000/api')).toBe(
      'ws://localhost:3000/api/ws',
    );
    expect(chatSocketUrl('https://proam.example.jp/api/')).toBe(
      'wss://proam.example.jp/api/ws',
    );
  });

  it('backs off exponentially up to 30 s', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, mid))).toEqual([
      1000, 2000, 4000, 8000, 30000,
    ]);
  });

  it('sends the token as a subprotocol, reconnects with a fresh one on 4001 and catches up', async () => {
    vi.useFakeTimers();
    const tokens = ['t1', 't2', 't3'];
    const onEvent = vi.fn();
    const onReconnected = vi.fn();
    const stop = connectChatSocket({
      url: 'ws://x/api/ws',
      getToken: async () => tokens.shift() ?? null,
      onEvent,
      onReconnected,
      createSocket: (u, p) => new FakeSocket(u, p) as unknown as WebSocket,
    });
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeSocket.all[0]!;
    expect(first.protocols).toEqual(['proam', 'bearer.t1']);
    first.emit({ type: 'hello' });
    expect(onReconnected).not.toHaveBeenCalled();
    const message = { type: 'message', body: { sort_key: '01A' } };
    first.emit(message);
    expect(onEvent).toHaveBeenCalledWith(message);

    first.drop(4001);
    await vi.advanceTimersByTimeAsync(0);
    const second = FakeSocket.all[1]!;
    expect(second.protocols).toEqual(['proam', 'bearer.t2']);
    second.emit({ type: 'hello' });
    expect(onReconnected).toHaveBeenCalledTimes(1);

    // Any other close waits (about 1 s) before trying again.
    second.drop(1006);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(3);
    stop();
    expect(FakeSocket.all[2]!.closed).toBe(true);
  });

  it('on 4003 (the logins ended) asks for a renewed session, and stays closed without one', async () => {
    vi.useFakeTimers();
    const asked: boolean[] = [];
    const tokens = ['t1', null];
    connectChatSocket({
      url: 'ws://x/api/ws',
      getToken: async (renew) => {
        asked.push(renew);
        return tokens.shift() ?? null;
      },
      onEvent: vi.fn(),
      onReconnected: vi.fn(),
      createSocket: (u, p) => new FakeSocket(u, p) as unknown as WebSocket,
    });
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.all[0]!.emit({ type: 'hello' });
    FakeSocket.all[0]!.drop(SESSION_ENDED_CLOSE);
    await vi.advanceTimersByTimeAsync(60_000);
    // The revoked token is never sent again: the session was renewed, and
    // that failing, no socket was opened.
    expect(asked).toEqual([false, true]);
    expect(FakeSocket.all).toHaveLength(1);
  });
});
