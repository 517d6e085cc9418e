/**
 * Group commit for calls that each cost a database round trip or a
 * transaction: the calls made while a batch is running wait and go together
 * as the next one, so the busier the instance, the bigger each batch and the
 * cheaper each call; an idle instance runs each call alone after one turn of
 * the event loop.
 */
export type BatchQueueOptions = {
  /** Items in one batch at the most. */
  max: number;
  /** Batches running at once (each takes a pool connection). */
  inFlight: number;
};

/**
 * What `run` answers for each item of a batch, in the batch's order: a
 * value, or the error of that item alone (the others still get theirs).
 */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

type Waiter<T, R> = {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
};

/**
 * A function that queues `item` and answers its result once the batch it
 * went with has run. `run` gets up to `max` items and answers one `Settled`
 * per item; if it throws, every item of the batch gets that error.
 */
export function batchQueue<T, R>(
  run: (items: T[]) => Promise<Settled<R>[]>,
  { max, inFlight: maxInFlight }: BatchQueueOptions,
): (item: T) => Promise<R> {
  let pending: Waiter<T, R>[] = [];
  let scheduled = false;
  let inFlight = 0;

  const schedule = () => {
    if (scheduled || pending.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    // After the current I/O phase: the requests read in it join one batch.
    setImmediate(flush);
  };
  const flush = () => {
    scheduled = false;
    while (pending.length > 0 && inFlight < maxInFlight) {
      const batch = pending.slice(0, max);
      pending = pending.slice(max);
      void runBatch(batch);
    }
  };
  const runBatch = async (batch: Waiter<T, R>[]) => {
    inFlight++;
    try {
      const results = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => {
        const r = results[i];
        if (r?.ok) w.resolve(r.value);
        else
          w.reject(
            r ? r.error : new Error('batchQueue: no result for an item'),
          );
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      inFlight--;
      schedule();
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      schedule();
    });
}

/** `fn`'s value or error as a `Settled`. */
export async function settle<R>(fn: () => Promise<R>): Promise<Settled<R>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}
