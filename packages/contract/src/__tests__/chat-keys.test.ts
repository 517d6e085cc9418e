import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catchUpAfter } from '../chat-keys.js';

describe('catchUpAfter', () => {
  it('starts 5 s before the newest key, before every key of that moment', () => {
    // 01KAAAAAAA…: a ULID of 2025; 5,000 ms earlier, then the smallest key.
    const newest = '01KAAAAAAA7Z9X4MQ2B3C5D6E8';
    const from = catchUpAfter(newest);
    assert.equal(from.length, 26);
    assert.ok(from < newest);
    const ms = (k: string) =>
      [...k.slice(0, 10)].reduce(
        (t, c) => t * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c),
        0,
      );
    assert.equal(ms(newest) - ms(from), 5_000);
    assert.equal(from.slice(10), '0'.repeat(16));
    // A message of 4.9 s before the newest is fetched again; one of 5.1 s is not.
    const at = (t: number) => {
      let p = '';
      for (let i = 0; i < 10; i++, t = Math.floor(t / 32))
        p = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[t % 32]! + p;
      return `${p}7Z9X4MQ2B3C5D6E8`;
    };
    assert.ok(at(ms(newest) - 4_900) > from);
    assert.ok(at(ms(newest) - 5_100) < from);
  });

  it('leaves a key that is not a ULID as it is', () => {
    assert.equal(catchUpAfter('k-12'), 'k-12');
  });
});
