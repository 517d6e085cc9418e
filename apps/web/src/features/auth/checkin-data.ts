import type { LoginResult } from '@proam/contract';
import { readJwtType } from './access-token';

/** A person who arrived through the procurement check-in; exists only on the client. */
export type BuyerUser = { id: string; userName: string; type: 'BUYER' };

/**
 * Whether the server handed out a buyer (punch-out) session: it says so in
 * the user it answers (`type: "BUYER"`) and in the access token's `typ`
 * claim (`buyer`). Only then does the stored check-in record mean anything;
 * a member's login is a member's login whatever the storage holds.
 */
export const isBuyerLogin = (result: LoginResult): boolean =>
  result.user.type === 'BUYER' ||
  readJwtType(result.token.accessToken) === 'buyer';

/**
 * The part of the stored check-in data (key `checkin`) the session reads: the
 * user id of the purchasing system's PunchOutSetupRequest. The check-in flow
 * stores more; anything else is ignored here.
 */
export type CheckinData = { punchOutSetupRequest: { userId: string } };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

type StoredCheckin = {
  record: Record<string, unknown>;
  request: Record<string, unknown>;
};

/**
 * The stored check-in record as an object, with its PunchOutSetupRequest
 * object: null when missing, not JSON or without that request, never a throw.
 */
export const readStoredCheckin = (raw: string | null): StoredCheckin | null => {
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || !isRecord(parsed.punchOutSetupRequest)) return null;
  return { record: parsed, request: parsed.punchOutSetupRequest };
};

/** Null for a missing, unparsable or incomplete record, never a throw. */
export const parseCheckin = (raw: string | null): CheckinData | null => {
  const stored = readStoredCheckin(raw);
  if (!stored) return null;
  const { userId } = stored.request;
  if (typeof userId !== 'string' || userId.trim() === '') return null;
  return { punchOutSetupRequest: { userId } };
};

/** The seed's buyer identity: both id and userName are the setup request's user id. */
export const buyerFromCheckin = (data: CheckinData | null): BuyerUser | null =>
  data
    ? {
        id: data.punchOutSetupRequest.userId,
        userName: data.punchOutSetupRequest.userId,
        type: 'BUYER',
      }
    : null;
