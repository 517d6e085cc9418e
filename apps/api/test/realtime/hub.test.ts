import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CHANNEL,
  createHub,
  SESSION_ENDED_CLOSE,
} from '../../src/realtime/hub.js';

/** messageNotice reads none of the hub's dependencies. */
const hub = createHub({} as Parameters<typeof createHub>[0]);
const KEY = '01KBZ7Q4N2V3W5X6Y7Z8A9B0CD';
const draft = (msg: string) => ({
  partitionKey: '01KBZ7Q4N2V3W5X6Y7Z8A9B0LS',
  sender: '01KBZ7Q4N2V3W5X6Y7Z8A9B0PR',
  msg,
  createTime: '2026-11-27T05:00:00.000Z',
});
/** The NOTIFY payload as chat_append sends it: the parts joined by the key. */
const payload = (parts: string[]) => parts.join(KEY);

describe('chat hub: the NOTIFY of a new message', () => {
  it('is the event with the key in both places, whatever the text', () => {
    const members = [
      '01KBZ7Q4N2V3W5X6Y7Z8A9B0PR',
      '01KBZ7Q4N2V3W5X6Y7Z8A9B0AM',
    ];
    for (const msg of [
      'こんにちは',
      '","sort_key":"0","message":{"sort_key":"',
      'back\\slash "quoted"\nnew line\ttab',
      '絵文字 ⛳️🏌️‍♀️',
      `${KEY} の前後`,
    ]) {
      const notice = hub.messageNotice(draft(msg), members);
      assert.equal(notice.channel, CHANNEL);
      assert.deepEqual(JSON.parse(payload(notice.parts)), {
        type: 'message',
        partitionKey: draft(msg).partitionKey,
        members,
        sortKey: KEY,
        message: { ...draft(msg), sort_key: KEY, readBy: [] },
      });
    }
  });

  it('leaves out the message, then the members, to stay under NOTIFY’s limit', () => {
    const members = ['01KBZ7Q4N2V3W5X6Y7Z8A9B0PR'];
    // 2,000 characters of three bytes each: 6,000 bytes, within the limit with the message.
    const long = hub.messageNotice(draft('ゴ'.repeat(2000)), members);
    assert.equal(
      (JSON.parse(payload(long.parts)) as { message: { msg: string } }).message
        .msg,
      'ゴ'.repeat(2000),
    );
    const tooBig = hub.messageNotice(draft('ゴ'.repeat(2600)), members);
    const withoutMessage = JSON.parse(payload(tooBig.parts)) as object;
    assert.deepEqual(withoutMessage, {
      type: 'message',
      partitionKey: draft('').partitionKey,
      members,
      sortKey: KEY,
    });
    const crowd = Array.from(
      { length: 400 },
      (_, i) => `M${String(i).padStart(25, '0')}`,
    );
    const keysOnly = hub.messageNotice(draft('やあ'), crowd);
    assert.deepEqual(JSON.parse(payload(keysOnly.parts)), {
      type: 'message',
      partitionKey: draft('').partitionKey,
      sortKey: KEY,
    });
    for (const n of [long, tooBig, keysOnly])
      assert.ok(Buffer.byteLength(payload(n.parts)) <= 7500);
  });
});

describe('chat hub: closing a member’s sockets', () => {
  /** A hub over a bus that delivers what is published at once, as LISTEN would. */
  async function busHub() {
    let onPayload: (payload: string) => void = () => undefined;
    const database = {
      listen: (_channel: string, on: (payload: string) => void) => {
        onPayload = on;
        return Promise.resolve(() => Promise.resolve());
      },
      notify: (_channel: string, payload: string) => {
        onPayload(payload);
        return Promise.resolve();
      },
    };
    const hub = createHub({
      database,
      log: { error: () => undefined },
    } as unknown as Parameters<typeof createHub>[0]);
    await hub.start();
    return hub;
  }
  /** Just what the hub uses of a socket; `closed` records the close code. */
  const fakeSocket = () => {
    const ws = {
      OPEN: 1,
      readyState: 1,
      closed: [] as number[],
      close(code: number) {
        ws.closed.push(code);
        ws.readyState = 2;
      },
      once: () => ws,
    };
    return ws;
  };
  type Socket = Parameters<ReturnType<typeof createHub>['add']>[1];

  it('closes every socket of the member with SESSION_ENDED_CLOSE, and no other', async () => {
    const hub = await busHub();
    const [a, b, other] = [fakeSocket(), fakeSocket(), fakeSocket()];
    const checked = Date.now();
    assert.ok(hub.add('A', a as unknown as Socket, checked));
    assert.ok(hub.add('A', b as unknown as Socket, checked));
    assert.ok(hub.add('B', other as unknown as Socket, checked));
    await hub.disconnect('A');
    assert.deepEqual(a.closed, [SESSION_ENDED_CLOSE]);
    assert.deepEqual(b.closed, [SESSION_ENDED_CLOSE]);
    assert.deepEqual(other.closed, []);
  });

  it('closes a socket whose token was checked before the close and that opens after it', async () => {
    const hub = await busHub();
    const checked = Date.now();
    await hub.disconnect('A');
    const late = fakeSocket();
    assert.equal(hub.add('A', late as unknown as Socket, checked), false);
    assert.deepEqual(late.closed, [SESSION_ENDED_CLOSE]);
    assert.equal(hub.socketsOf('A'), 0);
    // Well after the close, a new login's socket stays.
    const fresh = fakeSocket();
    assert.ok(hub.add('A', fresh as unknown as Socket, Date.now() + 60_000));
    assert.deepEqual(fresh.closed, []);
  });
});
