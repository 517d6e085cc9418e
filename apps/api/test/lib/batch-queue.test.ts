import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchQueue, settle, type Settled } from '../../src/lib/batch-queue.js';

/** A batch runner that records its batches and lets the test finish each one. */
function recorder<R>(answer: (items: number[]) => Settled<R>[]) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    return answer(items);
  };
  /** Finishes the oldest running batch once it has started. */
  const release = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()!();
  };
  return { batches, run, release };
}

const doubled = (items: number[]) =>
  items.map((n) => ({ ok: true as const, value: n * 2 }));

describe('batchQueue (group commit)', () => {
  it('runs a lone call alone, and the calls made meanwhile together as the next batch', async () => {
    const r = recorder(doubled);
    const call = batchQueue(r.run, { max: 10, inFlight: 1 });
    const first = call(1);
    await r.release();
    assert.equal(await first, 2);
    const second = call(2);
    // While the second batch runs, three more calls wait for it to end.
    while (r.batches.length < 2) await new Promise((s) => setImmediate(s));
    const waiting = [call(3), call(4), call(5)];
    await r.release();
    await r.release();
    assert.deepEqual(await Promise.all([second, ...waiting]), [4, 6, 8, 10]);
    assert.deepEqual(r.batches, [[1], [2], [3, 4, 5]]);
  });

  it('never puts more than `max` items in a batch nor runs more than `inFlight` batches at once', async () => {
    const r = recorder(doubled);
    const call = batchQueue(r.run, { max: 2, inFlight: 2 });
    const all = Promise.all([1, 2, 3, 4, 5].map((n) => call(n)));
    while (r.batches.length < 2) await new Promise((s) => setImmediate(s));
    assert.deepEqual(r.batches, [
      [1, 2],
      [3, 4],
    ]);
    await r.release();
    await r.release();
    await r.release();
    assert.deepEqual(await all, [2, 4, 6, 8, 10]);
    assert.deepEqual(r.batches, [[1, 2], [3, 4], [5]]);
  });

  it("gives each item its own error, and every item the batch's error when the whole batch fails", async () => {
    const call = batchQueue(
      async (items: number[]) =>
        items.map((n) =>
          n % 2
            ? { ok: true as const, value: n }
            : { ok: false as const, error: new Error(`even ${n}`) },
        ),
      { max: 10, inFlight: 1 },
    );
    const out = await Promise.allSettled([call(1), call(2), call(3)]);
    assert.deepEqual(
      out.map((o) => (o.status === 'fulfilled' ? o.value : String(o.reason))),
      [1, 'Error: even 2', 3],
    );

    let down = true;
    const failing = batchQueue(
      async (items: number[]): Promise<Settled<number>[]> => {
        if (down) throw new Error('down');
        return doubled(items);
      },
      { max: 10, inFlight: 1 },
    );
    const both = await Promise.allSettled([failing(1), failing(2)]);
    assert.deepEqual(
      both.map((o) => o.status === 'rejected' && String(o.reason)),
      ['Error: down', 'Error: down'],
    );
    // The queue goes on after a failed batch.
    down = false;
    assert.equal(await failing(21), 42);
  });

  it('settle answers a value or the error as a Settled', async () => {
    assert.deepEqual(await settle(async () => 7), { ok: true, value: 7 });
    const err = new Error('no');
    assert.deepEqual(
      await settle(async () => {
        throw err;
      }),
      { ok: false, error: err },
    );
  });
});
