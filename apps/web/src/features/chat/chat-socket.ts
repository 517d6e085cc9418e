import type { SocketEvent } from '@proam/contract';
import { resolveApiBase } from '@/config/env';

/** `{API_BASE}/ws` with ws:// or wss:// to match the page (docs/api.md). */
export const chatSocketUrl = (apiBase: string = resolveApiBase()): string => {
  const url = new URL(`${apiBase.replace(/\/+$/, '')}/ws`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
};

/** The token expired: reconnect at once with a fresh one (API closes with 4001). */
export const TOKEN_EXPIRED_CLOSE = 4001;
/**
 * The member's logins ended (suspension, password reset, account deletion;
 * the API closes with 4003): the token in hand is void, so the session is
 * renewed first, and the socket stays closed if that fails.
 */
export const SESSION_ENDED_CLOSE = 4003;
export const BACKOFF_START_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/** The wait before reconnect attempt `attempt` (0-based): 1 s, 2 s, 4 s … 30 s, with jitter. */
export const backoffDelay = (attempt: number, random = Math.random): number =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** attempt) *
  (0.75 + random() * 0.5);

export const parseSocketEvent = (data: unknown): SocketEvent | null => {
  if (typeof data !== 'string') return null;
  try {
    const event = JSON.parse(data) as { type?: unknown; body?: unknown };
    if (
      (event.type === 'message' || event.type === 'read') &&
      typeof event.body === 'object' &&
      event.body !== null
    )
      return event as SocketEvent;
  } catch {
    // Not JSON: ignore it.
  }
  return null;
};

const isHello = (data: unknown): boolean => {
  if (typeof data !== 'string') return false;
  try {
    return (JSON.parse(data) as { type?: unknown }).type === 'hello';
  } catch {
    return false;
  }
};

type Options = {
  url: string;
  /**
   * A fresh access token, or null when the session is gone (stop trying);
   * `renew`: the one in hand was revoked, renew the session for a new one.
   */
  getToken: (renew: boolean) => Promise<string | null>;
  onEvent: (event: SocketEvent) => void;
  /** After the second and later connections: time to catch up. */
  onReconnected: () => void;
  createSocket?: (url: string, protocols: string[]) => WebSocket;
};

/**
 * Keeps one socket open: the token travels as the `bearer.<token>`
 * subprotocol (never in the URL), 4001 reconnects at once with a fresh token,
 * other closes back off exponentially, and coming back online retries at once.
 * Returns the function that closes it for good.
 */
export const connectChatSocket = ({
  url,
  getToken,
  onEvent,
  onReconnected,
  createSocket = (u, p) => new WebSocket(u, p),
}: Options): (() => void) => {
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let connectedBefore = false;
  let stopped = false;
  let renew = false;

  const schedule = (delay: number) => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void open();
    }, delay);
  };

  const open = async () => {
    if (stopped || socket) return;
    const token = await getToken(renew);
    renew = false;
    if (stopped) return;
    if (!token) return;
    // The server answers with the plain `proam` protocol, so the token is never echoed back.
    const ws = createSocket(url, ['proam', `bearer.${token}`]);
    socket = ws;
    ws.onmessage = (e: MessageEvent) => {
      const raw: unknown = e.data;
      if (isHello(raw)) {
        attempt = 0;
        if (connectedBefore) onReconnected();
        connectedBefore = true;
        return;
      }
      const event = parseSocketEvent(raw);
      if (event) onEvent(event);
    };
    ws.onclose = (e: CloseEvent) => {
      if (socket === ws) socket = null;
      if (stopped) return;
      if (e.code === SESSION_ENDED_CLOSE) {
        renew = true;
        schedule(0);
      } else if (e.code === TOKEN_EXPIRED_CLOSE) schedule(0);
      else schedule(backoffDelay(attempt++));
    };
  };

  const onOnline = () => {
    if (socket || stopped) return;
    if (timer) clearTimeout(timer);
    timer = null;
    attempt = 0;
    void open();
  };
  if (typeof window !== 'undefined')
    window.addEventListener('online', onOnline);
  void open();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (typeof window !== 'undefined')
      window.removeEventListener('online', onOnline);
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000);
      socket = null;
    }
  };
};
