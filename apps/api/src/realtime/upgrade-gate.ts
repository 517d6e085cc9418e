/**
 * Admission of WebSocket upgrades. After an instance restarts, every client
 * reconnects at once; refusing the overflow with 503 makes them all retry
 * together again. Instead an upgrade waits its turn: at most `concurrency`
 * upgrades are being authenticated at a time, and none starts while
 * `busy()` (the database queue that load shedding watches is too long). An
 * upgrade that cannot start within `maxWaitMs`, or that finds `maxLine`
 * others waiting, is refused (503 with Retry-After, as shedding answers).
 */
export type UpgradeGate = {
  /** Resolves with the release to call when the authentication is over, or null if refused. */
  admit(): Promise<(() => void) | null>;
  /** Upgrades being authenticated now, and waiting for their turn. */
  stats(): { active: number; waiting: number };
};

/** While upgrades wait only for `busy()` to clear, how often it is looked at (the pool queue has no event). */
const BUSY_POLL_MS = 10;

export function upgradeGate({
  concurrency,
  maxWaitMs,
  maxLine,
  busy = () => false,
}: {
  concurrency: number;
  maxWaitMs: number;
  maxLine: number;
  busy?: () => boolean;
}): UpgradeGate {
  let active = 0;
  type Waiter = { admit: () => void; timer: NodeJS.Timeout };
  const line: Waiter[] = [];
  let poll: NodeJS.Timeout | undefined;

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
      w.admit();
    }
    if (line.length > 0 && active < concurrency && !poll)
      poll = setTimeout(() => {
        poll = undefined;
        pump();
      }, BUSY_POLL_MS);
  };

  return {
    admit() {
      if (line.length === 0 && canStart()) return Promise.resolve(releaser());
      if (line.length >= maxLine) return Promise.resolve(null);
      return new Promise((resolve) => {
        const w: Waiter = {
          admit: () => resolve(releaser()),
          timer: setTimeout(() => {
            const i = line.indexOf(w);
            if (i >= 0) line.splice(i, 1);
            resolve(null);
          }, maxWaitMs),
        };
        line.push(w);
        pump();
      });
    },
    stats: () => ({ active, waiting: line.length }),
  };
}
