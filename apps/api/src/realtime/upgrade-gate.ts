/** The one WebSocket route (routes/chat.ts): the only requests the gate admits. */
export const SOCKET_PATH = '/api/ws';

/**
 * Admission of WebSocket upgrades. After an instance restarts, every client
 * reconnects at once; refusing the overflow with 503 makes them all retry
 * together again. Instead an upgrade waits its turn: at most `concurrency`
 * upgrades are being authenticated at a time, and none starts while
 * `busy()` (the database queue that load shedding watches is too long). An
 * upgrade that cannot start within `maxWaitMs`, or that finds `maxLine`
 * others waiting, is refused (503 with Retry-After, as shedding answers).
 * One source (an IP) may have at most `maxWaitingPerKey` upgrades in the
 * line, so a single client cannot fill it: beyond that it is refused at once.
 */
export type UpgradeGate = {
  /**
   * Resolves with the release to call when the authentication is over, or
   * null if refused. `key` names the source (the client's IP) for
   * `maxWaitingPerKey`.
   */
  admit(key?: string): Promise<(() => void) | null>;
  /** Upgrades being authenticated now, and waiting for their turn. */
  stats(): { active: number; waiting: number };
};

/** While upgrades wait only for `busy()` to clear, how often it is looked at (the pool queue has no event). */
const BUSY_POLL_MS = 10;

export function upgradeGate({
  concurrency,
  maxWaitMs,
  maxLine,
  maxWaitingPerKey = Infinity,
  busy = () => false,
}: {
  concurrency: number;
  maxWaitMs: number;
  maxLine: number;
  maxWaitingPerKey?: number;
  busy?: () => boolean;
}): UpgradeGate {
  let active = 0;
  type Waiter = { admit: () => void; timer: NodeJS.Timeout; key?: string };
  const line: Waiter[] = [];
  /** Upgrades in the line per key (only keys with some). */
  const waitingBy = new Map<string, number>();
  let poll: NodeJS.Timeout | undefined;

  const leaveLine = (w: Waiter) => {
    if (w.key === undefined) return;
    const n = (waitingBy.get(w.key) ?? 1) - 1;
    if (n > 0) waitingBy.set(w.key, n);
    else waitingBy.delete(w.key);
  };

  const canStart = () => active < concurrency && !busy();
  const releaser = () => {
    active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active--;
      pump();
    };
  };
  /** First come, first served: the head of the line starts as soon as it may. */
  const pump = () => {
    while (line.length > 0 && canStart()) {
      const w = line.shift()!;
      clearTimeout(w.timer);
      leaveLine(w);
      w.admit();
    }
    if (line.length > 0 && active < concurrency && !poll)
      poll = setTimeout(() => {
        poll = undefined;
        pump();
      }, BUSY_POLL_MS);
  };

  return {
    admit(key) {
      if (line.length === 0 && canStart()) return Promise.resolve(releaser());
      if (line.length >= maxLine) return Promise.resolve(null);
      if (key !== undefined && (waitingBy.get(key) ?? 0) >= maxWaitingPerKey)
        return Promise.resolve(null);
      return new Promise((resolve) => {
        const w: Waiter = {
          admit: () => resolve(releaser()),
          timer: setTimeout(() => {
            const i = line.indexOf(w);
            if (i >= 0) line.splice(i, 1);
            leaveLine(w);
            resolve(null);
          }, maxWaitMs),
          key,
        };
        line.push(w);
        if (key !== undefined)
          waitingBy.set(key, (waitingBy.get(key) ?? 0) + 1);
        pump();
      });
    },
    stats: () => ({ active, waiting: line.length }),
  };
}
