/** The access token counts as expired this long before its `exp` (docs/api.md). */
export const EXPIRY_MARGIN_MS = 300_000;

const base64UrlDecode = (part: string): string => {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
};

/** A JWT's payload claims, or null when the token is not a JWT with an object payload. */
const readJwtClaims = (token: string): Record<string, unknown> | null => {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(base64UrlDecode(payload));
    return typeof claims === 'object' && claims !== null
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

/**
 * `exp` (seconds since the epoch) from a JWT's payload, or null when the token
 * is not a JWT with a numeric `exp`. The signature is the server's business.
 */
export const readJwtExp = (token: string): number | null => {
  const exp = readJwtClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
};

/**
 * The `typ` claim the server signs into an access token: the member type, or
 * `buyer` for a punch-out session (apps/api plugins/auth.ts). Null when absent.
 */
export const readJwtType = (token: string): string | null => {
  const typ = readJwtClaims(token)?.typ;
  return typeof typ === 'string' ? typ : null;
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
