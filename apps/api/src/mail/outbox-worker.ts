import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import {
  OUTBOX_CHANNEL,
  type MailCategory,
  type OutboxRow,
  type outboxRepository,
} from '../repositories/outbox-repository.js';
import type { Mailer } from './mailer.js';

type Outbox = ReturnType<typeof outboxRepository>;

/** Categories a member may turn off (通知設定); account and contact mails always go. */
const OPTIONAL: ReadonlySet<MailCategory> = new Set([
  'booking',
  'reminder',
  'chat',
]);

/**
 * Sends what the outbox holds. Woken by the NOTIFY an enqueue sends at commit
 * (any instance), and by a timer for retries that come due. A mail is marked
 * sent right after the SMTP server accepted it, so it is sent twice only if
 * the process dies between the two. The marks share one UPDATE: those
 * accepted while the last one was on its way go in the next.
 */
export function createOutboxWorker(deps: {
  outbox: Outbox;
  transport: Pick<Mailer, 'send' | 'verify'>;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Mails claimed per round trip. */
  batch?: number;
  /** Mails handed to the transport at once (its pool's connections). */
  parallel?: number;
  /** The longest sleep between looks when nothing wakes it. */
  idleMs?: number;
  /** How often the mail server is probed while sends fail. */
  probeMs?: number;
  /**
   * How long a NOTIFY waits for the next ones before the worker looks: every
   * commit that writes mail notifies, and one round for several saves a claim,
   * a settings read and a mark per commit.
   */
  gatherMs?: number;
}) {
  const batch = deps.batch ?? 100;
  const parallel = deps.parallel ?? 5;
  const idleMs = deps.idleMs ?? 5_000;
  const probeMs = deps.probeMs ?? 10_000;
  const gatherMs = deps.gatherMs ?? 20;
  let gathering: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  let unlisten: (() => Promise<void>) | undefined;
  // Set by a failed send, cleared when the mail server is seen again: by a
  // send that succeeds or by a probe (transport.verify).
  let outage = false;
  let probe: NodeJS.Timeout | undefined;
  const accepted: string[] = [];
  let marking: Promise<void> | undefined;

  /** Marks what the mail server accepted as sent, in one UPDATE per round trip. */
  function markSent(id: string): Promise<void> {
    accepted.push(id);
    marking ??= (async () => {
      try {
        while (accepted.length > 0) {
          const ids = accepted.splice(0);
          try {
            await deps.outbox.finish(ids, 'sent', deps.clock.now());
          } catch (err) {
            // Kept for the next mark, so a database blip does not send them again.
            accepted.unshift(...ids);
            throw err;
          }
        }
      } finally {
        marking = undefined;
      }
    })();
    return marking;
  }

  /**
   * The mail server is back: what failed meanwhile is due now, so an outage
   * costs its own length and not the backoff of its last attempt.
   */
  async function recovered(): Promise<void> {
    if (!outage) return;
    outage = false;
    clearTimeout(probe);
    const released = await deps.outbox.retryFailedNow(deps.clock.now());
    deps.log.info({ released }, 'mail server reachable again; retrying now');
    again = true;
  }

  function probeLater(): void {
    if (stopped || !outage || !deps.transport.verify) return;
    clearTimeout(probe);
    probe = setTimeout(() => {
      void (async () => {
        try {
          await deps.transport.verify?.();
        } catch {
          probeLater();
          return;
        }
        try {
          await recovered();
        } catch (err) {
          deps.log.warn({ err }, 'mail outbox release failed');
        }
        void wake();
      })();
    }, probeMs);
    probe.unref();
  }

  async function deliver(row: OutboxRow): Promise<void> {
    const now = deps.clock.now();
    try {
      await deps.transport.send({
        to: row.toAddress,
        subject: row.subject,
        text: row.body,
        ...(row.replyTo ? { replyTo: row.replyTo } : {}),
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      deps.log.warn(
        { err, mailId: row.id, attempts: row.attempts },
        'mail not sent; will retry',
      );
      await deps.outbox.fail(row, message, now);
      if (!outage) {
        outage = true;
        probeLater();
      }
      return;
    }
    await Promise.all([markSent(row.id), recovered()]);
  }

  async function round(): Promise<number> {
    const rows = await deps.outbox.claim(deps.clock.now(), batch);
    if (rows.length === 0) return 0;
    const members = [
      ...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : []))),
    ];
    const off = await deps.outbox.optedOut(members);
    const skipped = rows.filter(
      (r) =>
        r.userId &&
        OPTIONAL.has(r.category) &&
        off.get(r.userId)?.has(r.category),
    );
    await deps.outbox.finish(
      skipped.map((r) => r.id),
      'skipped',
      deps.clock.now(),
    );
    const queue = rows.filter((r) => !skipped.includes(r));
    // Every lane finishes before the round does, so stop() never returns with a send in flight.
    const lanes = await Promise.allSettled(
      Array.from({ length: Math.min(parallel, queue.length) }, async () => {
        for (let row = queue.shift(); row; row = queue.shift())
          await deliver(row);
      }),
    );
    const failed = lanes.find((l) => l.status === 'rejected');
    if (failed) throw failed.reason;
    return rows.length;
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      try {
        while (!stopped && (await round()) > 0);
      } catch (err) {
        deps.log.error({ err }, 'mail outbox round failed');
      }
    } while (again && !stopped);
  }

  function schedule(ms: number) {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => void wake(), ms);
    timer.unref();
  }

  /** Looks for due mail now (or right after the round under way). */
  function wake(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = undefined;
      schedule(idleMs);
    });
    return running;
  }

  return {
    wake,
    async start() {
      stopped = false;
      // Mails a previous run failed to send may wait out a long backoff: the
      // first sign of the mail server (a send or the probe) makes them due.
      outage = true;
      probeLater();
      unlisten = await deps.database.listen(
        OUTBOX_CHANNEL,
        // Not pushed back by later ones, so a steady stream is still served every gatherMs.
        () => {
          if (gathering) return;
          gathering = setTimeout(() => {
            gathering = undefined;
            void wake();
          }, gatherMs);
          gathering.unref();
        },
        () => void wake(),
      );
      void wake();
    },
    /** Finishes the round under way; what is left stays queued for the next start. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(gathering);
      gathering = undefined;
      clearTimeout(probe);
      await unlisten?.().catch(() => undefined);
      await running;
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
