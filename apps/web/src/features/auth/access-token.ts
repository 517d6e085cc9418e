/** The access token counts as expired this long before its `exp` (spec/API.md). */
export const EXPIRY_MARGIN_MS = 300_000;

const base64UrlDecode = (part: string): string => {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
};

/**
 * `exp` (seconds since the epoch) from a JWT's payload, or null when the token
 * is not a JWT with a numeric `exp`. The signature is the server's business.
 */
export const readJwtExp = (token: string): number | null => {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(base64UrlDecode(payload));
    const exp =
      typeof claims === 'object' && claims !== null
        ? (claims as { exp?: unknown }).exp
        : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
};

/**
 * Whether a token with this `exp` may still be sent. `serverOffsetMs` (server
 * clock minus ours, from the handshake) keeps a wrong device clock from
 * refreshing on every call or sending expired tokens.
 */
export const isAccessTokenFresh = (
  exp: number | null,
  serverOffsetMs = 0,
  now: number = Date.now(),
): boolean =>
  exp !== null && exp * 1000 - EXPIRY_MARGIN_MS > now + serverOffsetMs;
