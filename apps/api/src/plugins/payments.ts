import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Stripe from 'stripe';
import {
  createRefundWorker,
  type RefundWorker,
} from '../payments/refund-worker.js';
import {
  createStripeClient,
  stripeErrorMessage,
} from '../payments/stripe-client.js';
import type { PaymentEffects } from '../repositories/schedule-repository.js';

/** Online payment, when configured (config.stripe); null in 現地払い mode. */
export type Payments = {
  stripe: Stripe;
  /** The webhook endpoint's signing secret (STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
  refundWorker: RefundWorker;
  /**
   * What a committed change left for Stripe: released holds' PaymentIntents
   * are cancelled (best effort: one that succeeded meanwhile is settled by
   * its event, which then refunds it), queued refunds are sent.
   */
  afterCommit(effects: PaymentEffects): void;
  /** Resolves when the Stripe calls `afterCommit` started have ended (tests, shutdown). */
  settled(): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments | null;
  }
}

/**
 * Payments ON only with STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and
 * STRIPE_PUBLISHABLE_KEY all set: then the Stripe client and the refund
 * worker. A partial set starts the server in 現地払い mode with a warning
 * naming what is missing, so a half-done deployment never takes money it
 * cannot confirm.
 */
export const paymentsPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, repos, clock } = app;
    if (!config.stripe) {
      if (config.stripeMissing.length)
        app.log.warn(
          { missing: config.stripeMissing },
          `online payment is off (paid at the course): ${config.stripeMissing.join(', ')} not set`,
        );
      app.decorate('payments', null);
      return;
    }
    const log = app.log.child({ component: 'payments' });
    const stripe = createStripeClient(config.stripe);
    const refundWorker = createRefundWorker({
      refunds: repos.refunds,
      stripe,
      clock,
      log: app.log.child({ component: 'refund-worker' }),
    });
    const inFlight = new Set<Promise<unknown>>();
    const track = (work: Promise<unknown>) => {
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    };
    const payments: Payments = {
      stripe,
      webhookSecret: config.stripe.webhookSecret,
      refundWorker,
      afterCommit(effects) {
        for (const intent of effects.cancelIntents)
          track(
            stripe.paymentIntents.cancel(intent).catch((err: unknown) => {
              // Already succeeded or cancelled: its own event says what happened.
              log.info(
                { intent, error: stripeErrorMessage(err) },
                'PaymentIntent of a released hold not cancelled',
              );
            }),
          );
        if (effects.refundsQueued > 0) refundWorker.kick();
      },
      async settled() {
        while (inFlight.size) await Promise.allSettled([...inFlight]);
      },
    };
    app.decorate('payments', payments);
    app.addHook('onClose', async () => {
      await payments.settled();
      await refundWorker.stop();
    });
  },
  { name: 'payments', dependencies: ['config', 'repositories'] },
);
