import { hash, verify } from '@node-rs/argon2';
import { ApiError } from './api-error.js';

/** `Algorithm.Argon2id`; the package exports it as an ambient const enum. */
const ARGON2ID = 2;

/** argon2id at the OWASP/ASVS floor (m=19 MiB, t=2, p=1): about 25 ms a verify here. */
const PARAMS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Password hashing sets the login capacity (docs/security.md §1.8): unbounded, a login
 * flood takes every core and starves all other calls. At most one hash runs at
 * a time, leaving the other core to everything else; a long queue is shed
 * with 503 rather than left to time out.
 *
 * The queue is fair between sources (the caller's IP): each source has a
 * queue of its own and they are served round-robin, so a flood from one
 * address waits behind itself while another's login waits for at most one job
 * per source. When all 64 places are taken, a newcomer takes the place of the
 * newest job of the longest queue (shed with 503) if that queue is longer than
 * the newcomer's would be; otherwise the newcomer is shed. So no source, and
 * no crowd of sources, can keep another out, while a lone flood (or every
 * caller behind one proxy address) still has the whole queue.
 */
const MAX_RUNNING = 1;
const MAX_WAITING = 64;

type Waiter = { resolve: () => void; reject: (e: unknown) => void };
/** Waiting jobs by source; the Map's order is the round-robin order. */
const queues = new Map<string, Waiter[]>();
let waitingCount = 0;
let running = 0;

const shed = () =>
  new ApiError('ServiceUnavailable', undefined, { 'retry-after': '2' });

function wait(source: string): Promise<void> {
  const own = queues.get(source) ?? [];
  if (waitingCount >= MAX_WAITING) {
    let longest: Waiter[] = [];
    for (const q of queues.values()) if (q.length > longest.length) longest = q;
    if (longest.length <= own.length + 1) return Promise.reject(shed());
    longest.pop()!.reject(shed());
    waitingCount--;
  }
  return new Promise<void>((resolve, reject) => {
    own.push({ resolve, reject });
    queues.set(source, own);
    waitingCount++;
  });
}

/** The next job: the head of the first source's queue; that source moves to the back. */
function next(): Waiter | undefined {
  const first = queues.entries().next();
  if (first.done) return undefined;
  const [source, queue] = first.value;
  const job = queue.shift()!;
  waitingCount--;
  queues.delete(source);
  if (queue.length) queues.set(source, queue);
  return job;
}

async function limited<T>(source: string, work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await wait(source);
  else running++;
  try {
    return await work();
  } finally {
    const job = next();
    if (job) job.resolve();
    else running--;
  }
}

/** `source`: who asks (the caller's IP), for the queue's fairness. */
export const hashPassword = (password: string, source = 'local') =>
  limited(source, () => hash(password, PARAMS));
export const verifyPassword = (
  stored: string,
  password: string,
  source = 'local',
) => limited(source, () => verify(stored, password));
