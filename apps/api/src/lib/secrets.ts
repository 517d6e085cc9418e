import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** 256 random bits, URL-safe: 43 characters. */
export const newRefreshToken = (): string =>
  randomBytes(32).toString('base64url');

/** Refresh tokens are stored only as their SHA-256 (docs/security.md TK-06). */
export const hashToken = (raw: string): string =>
  createHash('sha256').update(raw).digest('hex');

/** A code of `digits` decimal digits from the CSPRNG (docs/security.md RC-01). */
export const newCode = (digits: 6 | 8): string =>
  String(randomInt(0, 10 ** digits)).padStart(digits, '0');

/** Codes are kept as an HMAC bound to address and purpose, so one can't be used for another. */
export const codeHash = (
  key: string,
  purpose: string,
  email: string,
  code: string,
): string =>
  createHmac('sha256', key)
    .update(`${purpose}\n${email}\n${code}`)
    .digest('hex');

export const sameHex = (a: string, b: string): boolean =>
  a.length === b.length &&
  timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/**
 * Seals a successor refresh token with a key derived from the token it
 * replaces. Within the grace window a client presenting the old token can
 * recover the successor; the database alone (which holds only hashes) cannot.
 */
export function sealWith(oldRaw: string, secret: string): string {
  const key = createHash('sha256').update(`seal\n${oldRaw}`).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function unsealWith(oldRaw: string, sealed: string): string | null {
  try {
    const buf = Buffer.from(sealed, 'base64url');
    const key = createHash('sha256').update(`seal\n${oldRaw}`).digest();
    const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
    decipher.setAuthTag(buf.subarray(12, 28));
    return Buffer.concat([
      decipher.update(buf.subarray(28)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
