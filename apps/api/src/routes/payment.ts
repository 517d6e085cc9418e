import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import {
  NgEnvelopeSchema,
  OkEnvelope,
  PaymentConfirmInputSchema,
  PaymentSchema,
  PaymentStartInputSchema,
  PaymentStartSchema,
  WebhookReceivedSchema,
} from '@proam/contract';
import { Type } from 'typebox';
import { ApiError, serviceUnavailable } from '../lib/api-error.js';
import { batchQueue } from '../lib/batch-queue.js';
import { defineRoute, perCaller } from '../lib/route.js';
import { japanDate } from '../lib/time.js';
import { stripeErrorMessage } from '../payments/stripe-client.js';
import type { Payments } from '../plugins/payments.js';
import type { StripeEvent } from '../repositories/payment-repository.js';

/** Stripe's own tolerance for a signature's age (seconds): an older delivery is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Stripe's events are small; this leaves room without reading megabytes from strangers. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;
/** Start and confirm each ask Stripe: a member's budget, generous for a page that retries. */
const ASKS_STRIPE = {
  max: 30,
  timeWindow: '1 minute',
  keyGenerator: perCaller,
};
/** Events handled in one transaction at the most (a burst beyond it runs as several batches). */
const WEBHOOK_BATCH_MAX = 50;

/**
 * Online payment: a hold and its PaymentIntent (/payment/start), the
 * client's report that Stripe.js confirmed (/payment/confirm), and Stripe's
 * signed events (/payment/webhook). With payments off there is nothing to
 * pay online: start and confirm answer 409, the webhook 404.
 */
export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const { repos, clock } = app;
  const tags = ['payment'];
  const log = app.log.child({ component: 'payments' });
  const online = (): Payments => {
    if (!app.payments) throw new ApiError('Conflict');
    return app.payments;
  };

  // Group commit of the intents' ids: the starts that answer while one
  // statement runs go in the next, each answered once its batch committed.
  const recordIntent = batchQueue(
    async (holds: { paymentId: string; intentId: string }[]) => {
      await repos.payments.setIntents(holds);
      return holds.map(() => ({ ok: true as const, value: undefined }));
    },
    { max: 100, inFlight: 2 },
  );

  defineRoute(app, {
    path: '/payment/start',
    auth: 'bearer',
    roles: ['amature'],
    rateLimit: ASKS_STRIPE,
    summary:
      '(wave 2) Hold a place of a lesson paid online for 15 minutes and its PaymentIntent (the same one while the hold runs)',
    tags,
    input: PaymentStartInputSchema,
    output: PaymentStartSchema,
    handler: async ({ input, caller }) => {
      const payments = online();
      const now = clock.now();
      const started = await repos.payments.start(
        input.scheduleId,
        caller.id,
        japanDate(now),
        now,
      );
      // Holds let go on the way are committed even when no place was found.
      payments.afterCommit(started.effects);
      if ('refused' in started) throw new ApiError(started.refused);
      const { payment } = started;
      // After COMMIT, never under the lesson's lock. A hold with its intent
      // recorded asks for that one. Otherwise the same key and the same
      // parameters on every call for this hold, so a retried or concurrent call
      // gets Stripe's first PaymentIntent back, never a second one: the
      // parameters come from the payment row alone, since a lesson's date or
      // its pro's name may change while the hold runs (and Stripe refuses a
      // key sent again with other parameters).
      let intent: Stripe.PaymentIntent;
      try {
        intent = payment.paymentIntentId
          ? await payments.stripe.paymentIntents.retrieve(
              payment.paymentIntentId,
            )
          : await payments.stripe.paymentIntents.create(
              {
                amount: payment.amount + payment.serviceFee,
                currency: 'jpy',
                automatic_payment_methods: { enabled: true },
                metadata: {
                  paymentId: payment.id,
                  scheduleId: payment.scheduleId,
                  userId: payment.userId,
                },
                description: `ProAm Connect ラウンドレッスン（お支払い番号 ${payment.id}）`,
              },
              { idempotencyKey: `hold-${payment.id}` },
            );
      } catch (err) {
        // The hold stays: calling again (same key) gets the intent once Stripe answers.
        log.warn(
          { paymentId: payment.id, error: stripeErrorMessage(err) },
          'PaymentIntent not created',
        );
        throw serviceUnavailable();
      }
      if (!intent.client_secret) throw serviceUnavailable();
      await recordIntent({ paymentId: payment.id, intentId: intent.id });
      return {
        reservationId: payment.id,
        clientSecret: intent.client_secret,
        amount: payment.amount,
        serviceFee: payment.serviceFee,
        holdExpiresAt: payment.holdExpiresAt.toISOString(),
      };
    },
  });

  defineRoute(app, {
    path: '/payment/confirm',
    auth: 'bearer',
    roles: ['amature'],
    rateLimit: ASKS_STRIPE,
    summary:
      "(wave 2) After Stripe.js confirmed: the server asks Stripe and, if paid, confirms as the webhook would; answers the caller's payment as it is now",
    tags,
    input: PaymentConfirmInputSchema,
    output: PaymentSchema,
    handler: async ({ input, caller }) => {
      const payments = online();
      const payment = await repos.payments.find(input.reservationId);
      // Someone else's payment is as unknown as a missing one.
      if (payment?.userId !== caller.id) throw new ApiError('NotFound');
      // Pending, or let go while the money was on its way (then it takes the late path).
      if (
        (payment.status === 'pending' || payment.status === 'failed') &&
        payment.paymentIntentId
      ) {
        let intent: Stripe.PaymentIntent;
        try {
          intent = await payments.stripe.paymentIntents.retrieve(
            payment.paymentIntentId,
          );
        } catch (err) {
          log.warn(
            { paymentId: payment.id, error: stripeErrorMessage(err) },
            'PaymentIntent not retrieved',
          );
          throw serviceUnavailable();
        }
        if (intent.status === 'succeeded') {
          const { outcome, effects } = await repos.payments.settle(
            intent,
            clock.now(),
          );
          if (outcome === 'ignored')
            log.error(
              { paymentId: payment.id, intent: intent.id },
              'PaymentIntent does not match its payment',
            );
          payments.afterCommit(effects);
        }
      }
      const answer = await repos.paymentRecords.one(payment.id);
      if (!answer) throw new ApiError('NotFound');
      return answer;
    },
  });

  // Encapsulated: its own body parser hands the raw bytes to the signature
  // check (a parsed and re-serialised body would not match the signature).
  // Group commit: the events that arrive while a batch is being handled go
  // together in the next one (Stripe sends in bursts), each answered once its
  // batch has committed, so a 200 still means the event has acted.
  const handleEvent = batchQueue(
    (events: StripeEvent[]) => {
      app.metrics.webhookBatch.observe(events.length);
      return repos.payments.handleEvents(events, clock.now());
    },
    { max: WEBHOOK_BATCH_MAX, inFlight: 1 },
  );
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser(
      ['application/json', '*'],
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    webhook.route({
      method: 'POST',
      url: '/api/payment/webhook',
      bodyLimit: WEBHOOK_BODY_LIMIT,
      // Stripe's signature is the credential; no rate limit (Stripe sends in bursts and retries).
      config: { auth: 'none' },
      schema: {
        summary:
          '(wave 2) Stripe events, verified by their Stripe-Signature (5 minutes tolerance); each event id acts once',
        tags,
        body: Type.Unknown({ description: 'The raw Stripe event (JSON)' }),
        response: {
          200: OkEnvelope(WebhookReceivedSchema),
          '4xx': NgEnvelopeSchema,
          '5xx': NgEnvelopeSchema,
        },
      },
      validatorCompiler: () => () => true,
      handler: async (req) => {
        const payments = app.payments;
        if (!payments) throw new ApiError('NotFound');
        const signature = req.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(req.body))
          throw new ApiError('ValidationError', 'Stripe-Signature');
        let event: Stripe.Event;
        try {
          event = payments.stripe.webhooks.constructEvent(
            req.body,
            signature,
            payments.webhookSecret,
            WEBHOOK_TOLERANCE_SECONDS,
          );
        } catch (err) {
          log.warn(
            { error: err instanceof Error ? err.message : String(err) },
            'webhook signature refused',
          );
          throw new ApiError('ValidationError', 'Stripe-Signature');
        }
        const { duplicate, settled, effects } = await handleEvent(event);
        if (settled === 'ignored')
          // Signed by Stripe but not one of our holds' intents (or its amount
          // differs): nothing is changed, and support must see it.
          log.warn(
            { eventId: event.id, type: event.type },
            'paid PaymentIntent does not match a payment; ignored',
          );
        if (!duplicate) payments.afterCommit(effects);
        return {
          status: 'OK' as const,
          reqId: req.id,
          body: { received: true as const },
        };
      },
    });
  });
}
