import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Clock } from '../lib/clock.js';
import type {
  ClaimedRefund,
  refundRepository,
} from '../repositories/refund-repository.js';

type Refunds = ReturnType<typeof refundRepository>;

/**
 * Refunds claimed per round trip: one. A claim's lease (REFUND_LEASE_MS)
 * covers one Stripe call with its retries (about 30 s at worst), not a batch
 * sent one after the other: a lease running out mid-batch would let another
 * worker send the same refund again and count Stripe's idempotent answer as a
 * failure.
 */
const BATCH = 1;

export type RefundWorker = {
  /** One round: every refund due now is sent to Stripe; answers how many were settled or failed an attempt. */
  runOnce(): Promise<number>;
  /** A round soon, without waiting for it (a commit just queued a refund); kicks in a row coalesce. */
  kick(): void;
  /** No more rounds; resolves when the one in flight has ended. */
  stop(): Promise<void>;
};

/**
 * Sends the refunds the database owes members to Stripe. A refund row is
 * written in the transaction that owes it (refund-repository's
 * `queueRefund`); this worker claims due rows under a lease, calls Stripe
 * with the idempotency key `refund-<id>` (a retry after a crash, or a second
 * instance after a lease ran out, gets Stripe's first answer back, never a
 * second refund), and records the outcome. A refusal is retried with backoff
 * and, after the last attempt, waits as `failed` for an admin: never dropped.
 */
export function createRefundWorker(o: {
  refunds: Refunds;
  stripe: Stripe;
  clock: Clock;
  log: FastifyBaseLogger;
}): RefundWorker {
  let stopped = false;
  let kicked: Promise<void> | undefined;
  let again = false;
  const inFlight = new Set<Promise<number>>();

  async function send(refund: ClaimedRefund): Promise<void> {
    let stripeRefundId: string;
    try {
      // A payment reaches a refund only once paid, so it has its intent;
      // a row without one is data damage an admin must see, not a crash.
      if (!refund.paymentIntentId)
        throw new Error('支払いに PaymentIntent がありません');
      const created = await o.stripe.refunds.create(
        { payment_intent: refund.paymentIntentId, amount: refund.amount },
        { idempotencyKey: `refund-${refund.id}` },
      );
      stripeRefundId = created.id;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const status = await o.refunds.markFailed(refund, message, o.clock.now());
      o.log.error(
        {
          err,
          refundId: refund.id,
          paymentId: refund.paymentId,
          attempts: refund.attempts + 1,
          status,
        },
        status === 'failed'
          ? 'refund refused by Stripe for the last time; an admin must retry it'
          : 'refund refused by Stripe; will retry',
      );
      return;
    }
    await o.refunds.markSucceeded(refund, stripeRefundId, o.clock.now());
    o.log.info(
      { refundId: refund.id, paymentId: refund.paymentId, stripeRefundId },
      'refund sent',
    );
  }

  async function round(): Promise<number> {
    let handled = 0;
    for (;;) {
      // Claimed rows are leased past now, so the next claim takes others.
      const due = await o.refunds.claimDue(o.clock.now(), BATCH);
      for (const refund of due) {
        try {
          await send(refund);
          handled++;
        } catch (err) {
          // The database failed around Stripe's answer: the lease runs out and
          // the same idempotency key gets Stripe's refund back next time.
          o.log.error(
            { err, refundId: refund.id },
            'refund not recorded; will retry',
          );
        }
      }
      if (due.length < BATCH || stopped) return handled;
    }
  }

  function runOnce(): Promise<number> {
    const p = round();
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
    return p;
  }

  return {
    runOnce,
    kick() {
      if (stopped) return;
      if (kicked) {
        // A round is on its way: one more after it picks up what this kick was for.
        again = true;
        return;
      }
      kicked = (async () => {
        do {
          again = false;
          try {
            await runOnce();
          } catch (err) {
            o.log.error(
              { err },
              'refund round failed; the next job round retries',
            );
          }
        } while (again && !stopped);
        kicked = undefined;
      })();
    },
    async stop() {
      stopped = true;
      await kicked;
      await Promise.allSettled([...inFlight]);
    },
  };
}
