import type { LoginResult } from '@proam/contract';
import { resolveApiBase } from '@/config/env';
import type { AuthState, SessionUser } from './auth-slice';
import { readStoredCheckin } from './checkin-data';
import {
  CHECKIN_KEY,
  readRefreshToken,
  removeCheckinRecord,
  removeRefreshToken,
} from './token-storage';

/**
 * Buyer mode: a person who arrived through the procurement check-in
 * (README.md, Web app: Check-in). Their token is read-only on the server, so the
 * member area offers them reading only, and the header offers the way back to
 * their purchasing system. The server decides who is a buyer (the session's
 * user type and token, see checkin-data.ts `isBuyerLogin`); the stored
 * check-in record only names the buyer and the way back.
 */
export const isBuyer = (user: SessionUser | null | undefined): boolean =>
  user?.type === 'BUYER';

export const selectIsBuyer = (state: { auth: AuthState }): boolean =>
  state.auth.status === 'authenticated' && isBuyer(state.auth.user);

/** What buyers read where a member would find an action. */
export const BUYER_READ_ONLY_NOTE =
  '購買システムからご利用の方は閲覧のみご利用いただけます。いいね・予約・チャット・プロフィールの編集はできません。';

/** The check-in record the server hands out and the app stores under `checkin`. */
export type CheckinRecord = {
  punchOutSetupRequest: {
    userId: string;
    userName: string;
    buyer: string;
    buyerCookie: string;
    browserFormPost: string;
  };
  checkedInAt: string;
};

export type CheckinResult = LoginResult & { checkin: CheckinRecord };

/** Only http(s) addresses may receive the order message. */
export const isSafeFormPost = (url: string): boolean => {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
};

/** The full check-in record, or null when missing, malformed or unsafe. */
export const parseCheckinRecord = (
  raw: string | null,
): CheckinRecord | null => {
  const stored = readStoredCheckin(raw);
  if (!stored) return null;
  const p = stored.request;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const userId = str(p.userId);
  const browserFormPost = str(p.browserFormPost);
  if (!userId || !isSafeFormPost(browserFormPost)) return null;
  return {
    punchOutSetupRequest: {
      userId,
      userName: str(p.userName) || userId,
      buyer: str(p.buyer),
      buyerCookie: str(p.buyerCookie),
      browserFormPost,
    },
    checkedInAt: str(stored.record.checkedInAt),
  };
};

export const readCheckinRecord = (): CheckinRecord | null => {
  try {
    return parseCheckinRecord(localStorage.getItem(CHECKIN_KEY));
  } catch {
    return null;
  }
};

export const writeCheckinRecord = (record: CheckinRecord): void => {
  try {
    localStorage.setItem(CHECKIN_KEY, JSON.stringify(record));
  } catch {
    // Without storage the buyer mode lasts until the page closes.
  }
};

/**
 * Going back to the purchasing system ends the punch-out session: the basket
 * is returned and a new punch-out starts a new session. The login is ended on
 * the server (a keepalive request, which outlives the page) and the stored
 * refresh token and check-in record go at once, so whoever opens the app next
 * on this browser finds no buyer session. The page itself is left alone: it
 * is navigating to the purchasing system.
 */
export const endBuyerSession = (): void => {
  const refreshToken = readRefreshToken();
  removeRefreshToken();
  removeCheckinRecord();
  if (!refreshToken) return;
  try {
    fetch(`${resolveApiBase()}/auth/logout`, {
      method: 'POST',
      keepalive: true,
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${refreshToken}`,
      },
      body: '{}',
    }).catch(() => undefined);
  } catch {
    // The refresh token is gone from this browser either way.
  }
};

const xmlEscape = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/**
 * A minimal cXML PunchOutOrderMessage: the buyer's cookie, no items, total
 * 0 JPY. Browsing pros puts nothing in the purchasing system's cart.
 */
export const buildOrderMessage = (
  record: CheckinRecord,
  now: Date = new Date(),
): string => {
  const { buyerCookie, buyer } = record.punchOutSetupRequest;
  const payloadId = `${now.getTime()}.${Math.random().toString(36).slice(2, 10)}@proam-connect`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">
<cXML payloadID="${xmlEscape(payloadId)}" timestamp="${now.toISOString()}" xml:lang="ja-JP">
  <Header>
    <From><Credential domain="NetworkID"><Identity>proam-connect</Identity></Credential></From>
    <To><Credential domain="NetworkID"><Identity>${xmlEscape(buyer)}</Identity></Credential></To>
    <Sender><Credential domain="NetworkID"><Identity>proam-connect</Identity></Credential><UserAgent>ProAm Connect</UserAgent></Sender>
  </Header>
  <Message>
    <PunchOutOrderMessage>
      <BuyerCookie>${xmlEscape(buyerCookie)}</BuyerCookie>
      <PunchOutOrderMessageHeader operationAllowed="edit">
        <Total><Money currency="JPY">0</Money></Total>
      </PunchOutOrderMessageHeader>
    </PunchOutOrderMessage>
  </Message>
</cXML>`;
};
