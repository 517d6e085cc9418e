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
 * Password hashing sets the login capacity (SECURITY §1.8): unbounded, a login
 * flood takes every core and starves all other calls. At most one hash runs at
 * a time, leaving the other core to everything else; a long queue is shed
 * with 503 rather than left to time out.
 */
const MAX_RUNNING = 1;
const MAX_WAITING = 64;
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING)
      throw new ApiError('ServiceUnavailable', undefined, {
        'retry-after': '2',
      });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string) =>
  limited(() => hash(password, PARAMS));
export const verifyPassword = (stored: string, password: string) =>
  limited(() => verify(stored, password));
