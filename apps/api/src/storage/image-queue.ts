import { serviceUnavailable } from '../lib/api-error.js';

export type JobQueueOptions = {
  /** Jobs running at once. */
  maxRunning: number;
  /** Jobs waiting for a turn, over every key; beyond it: 503. */
  maxWaiting: number;
  /** Jobs of one key (a member) in the queue, running or waiting; beyond it: 503. */
  maxPerKey: number;
  /** The Retry-After of the 503, in seconds. */
  retryAfterSeconds: number;
};

/**
 * A small admission queue for costly work off the request path: at most
 * `maxRunning` jobs at once, a bounded wait list served in order of arrival,
 * and at most `maxPerKey` jobs of one key in it, so one member cannot fill the
 * wait list and lock the others out. Anything over the bounds is refused at
 * once with 503 ServiceUnavailable and Retry-After, never left to time out.
 */
export class JobQueue {
  private active = 0;
  private readonly waitList: (() => void)[] = [];
  private readonly perKey = new Map<string, number>();

  constructor(private readonly opts: JobQueueOptions) {}

  /** Jobs running now. */
  get running(): number {
    return this.active;
  }

  /** Jobs waiting for a turn. */
  get waiting(): number {
    return this.waitList.length;
  }

  /** Runs `job` when its turn comes, or throws ServiceUnavailable at once. */
  async run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const mine = this.perKey.get(key) ?? 0;
    const mustWait = this.active >= this.opts.maxRunning;
    if (
      mine >= this.opts.maxPerKey ||
      (mustWait && this.waitList.length >= this.opts.maxWaiting)
    )
      throw serviceUnavailable(this.opts.retryAfterSeconds);
    this.perKey.set(key, mine + 1);
    if (mustWait)
      await new Promise<void>((resolve) => this.waitList.push(resolve));
    else this.active++;
    try {
      return await job();
    } finally {
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left > 0) this.perKey.set(key, left);
      else this.perKey.delete(key);
      // The slot passes straight to the next job, so `active` never drops
      // below the running count while someone waits.
      const next = this.waitList.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * The one queue for image decoding and re-encoding (storage upload and
 * update). One job at a time: sharp (libvips) and @node-rs/argon2 share
 * libuv's pool of 4 threads on this 2-core machine, so image work must never
 * take it all (a dozen huge images in parallel once made a login take 20 s).
 * 8 may wait (a 12 MP photo takes about 0.2 s, a 25 MP one about a second),
 * at most 2 of them (running or waiting) from one member: the app uploads
 * one photo at a time.
 */
export const imageQueue = new JobQueue({
  maxRunning: 1,
  maxWaiting: 8,
  maxPerKey: 2,
  retryAfterSeconds: 5,
});
