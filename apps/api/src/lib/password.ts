import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id`; the package exports it as an ambient const enum. */
const ARGON2ID = 2;

/** argon2id at the OWASP/ASVS floor (m=19 MiB, t=2, p=1): about 25 ms a verify here. */
const PARAMS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, PARAMS);
export const verifyPassword = (stored: string, password: string) => verify(stored, password);
