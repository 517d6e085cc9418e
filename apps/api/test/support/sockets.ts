import WebSocket from 'ws';

/** An event as the chat socket sends it. */
export type SocketEvent = { type: string; body: Record<string, unknown> };

/**
 * A socket to the API, open once the server's 'hello' came (it is then
 * registered for delivery), recording what it receives: `next` waits for an
 * event that matches, `closedWithin` for the close code. Rejects with
 * `HTTP <status>` when the upgrade is refused.
 */
export async function openSocket(url: string, protocols?: string[]) {
  const ws = new WebSocket(url, protocols);
  const events: SocketEvent[] = [];
  /** Frames that came as binary: a browser would hand those to the app as a Blob, not text. */
  const binary: SocketEvent[] = [];
  const waiters: {
    match: (e: SocketEvent) => boolean;
    resolve: (e: SocketEvent) => void;
  }[] = [];
  const closed = new Promise<number>((resolve) =>
    ws.once('close', (code) => resolve(code)),
  );
  ws.on('message', (data, isBinary) => {
    const e = JSON.parse(String(data)) as SocketEvent;
    if (isBinary) binary.push(e);
    events.push(e);
    for (const w of [...waiters])
      if (w.match(e)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
  });
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as SocketEvent).type === 'hello') resolve();
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`HTTP ${res.statusCode}`)),
    );
  });
  return {
    ws,
    events,
    binary,
    next(match: (e: SocketEvent) => boolean, ms = 5000) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise<SocketEvent>((resolve, reject) => {
        waiters.push({ match, resolve });
        setTimeout(
          () => reject(new Error('no such event in time')),
          ms,
        ).unref();
      });
    },
    /** The close code, or 'open' if the socket is still open after `ms`. */
    closedWithin: (ms = 3000) =>
      Promise.race([
        closed,
        new Promise<'open'>((r) => setTimeout(() => r('open'), ms).unref()),
      ]),
  };
}
