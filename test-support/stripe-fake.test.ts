/**
 * The Stripe fake against the official `stripe` library: the library talks to
 * it over HTTP exactly as it would to api.stripe.com, and its webhook
 * verification accepts what the fake signs and rejects what it must.
 *
 *   node --import tsx --test test-support/stripe-fake.test.ts
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import Stripe from 'stripe';
import {
  FAKE_API_VERSION,
  parseStripeForm,
  signPayload,
  startStripeFake,
  type StripeFake,
} from './stripe-fake.js';

type Received = { headers: http.IncomingHttpHeaders; body: string };

/** A webhook endpoint that keeps what it receives and answers `status`. */
async function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    received,
    setStatus(s: number) {
      status = s;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** How the API server will turn STRIPE_API_BASE into the library's config. */
function clientFor(
  apiBase: string,
  key: string,
  extra: { maxNetworkRetries?: number } = {},
): Stripe {
  const base = new URL(apiBase);
  return new Stripe(key, {
    host: base.hostname,
    port: base.port,
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: extra.maxNetworkRetries ?? 0,
  });
}

function signatureHeader(r: Received | undefined): string {
  const h = r?.headers['stripe-signature'];
  assert.equal(typeof h, 'string', 'Stripe-Signature header');
  return h as string;
}

const WEBHOOK_SECRET = 'whsec_test_proam_fake_secret';

describe('stripe fake with the official stripe library', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let fake: StripeFake;
  let stripe: Stripe;

  before(async () => {
    receiver = await startReceiver();
    fake = await startStripeFake({
      webhookUrl: receiver.url,
      webhookSecret: WEBHOOK_SECRET,
    });
    stripe = clientFor(fake.url, fake.secretKey);
  });

  after(async () => {
    await fake.close();
    await receiver.close();
  });

  beforeEach(async () => {
    await fake.settled();
    fake.reset();
    receiver.received.length = 0;
    receiver.setStatus(200);
  });

  const createIntent = (
    amount = 5500,
    reservationId = 'rsv_42',
    opts?: Stripe.RequestOptions,
  ) =>
    stripe.paymentIntents.create(
      {
        amount,
        currency: 'jpy',
        metadata: { reservationId, userId: 'u_7' },
        automatic_payment_methods: { enabled: true },
        description: 'ProAm lesson 2026-12-01',
      },
      opts,
    );

  it('creates a PaymentIntent with Stripe’s shape from a form-encoded body', async () => {
    const pi = await createIntent();
    assert.match(pi.id, /^pi_[A-Za-z0-9]{24}$/);
    assert.equal(pi.object, 'payment_intent');
    assert.equal(pi.amount, 5500);
    assert.equal(pi.amount_received, 0);
    assert.equal(pi.currency, 'jpy');
    assert.equal(pi.status, 'requires_payment_method');
    assert.equal(pi.client_secret?.startsWith(`${pi.id}_secret_`), true);
    assert.match(pi.client_secret ?? '', /^pi_\w+_secret_[A-Za-z0-9]{25}$/);
    assert.deepEqual(pi.metadata, { reservationId: 'rsv_42', userId: 'u_7' });
    assert.deepEqual(pi.automatic_payment_methods, { enabled: true });
    assert.equal(pi.description, 'ProAm lesson 2026-12-01');
    assert.equal(pi.latest_charge, null);
    assert.equal(pi.livemode, false);
    assert.ok(Math.abs(pi.created - Date.now() / 1000) < 5);
    assert.equal(pi.lastResponse.statusCode, 200);
    assert.match(pi.lastResponse.requestId, /^req_/);

    // What went over the wire: bracket notation, Bearer key, the library's
    // automatic idempotency key and pinned API version.
    const request = fake.state.requests.at(-1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.path, '/v1/payment_intents');
    assert.deepEqual(request?.params.metadata, {
      reservationId: 'rsv_42',
      userId: 'u_7',
    });
    assert.deepEqual(request?.params.automatic_payment_methods, {
      enabled: 'true',
    });
    assert.match(request?.idempotencyKey ?? '', /^stripe-node-retry-/);
    assert.equal(request?.stripeVersion, FAKE_API_VERSION);
    assert.equal(fake.state.paymentIntents.get(pi.id)?.amount, 5500);
  });

  it('retrieves the PaymentIntent it created', async () => {
    const created = await createIntent(8000, 'rsv_retrieve');
    const got = await stripe.paymentIntents.retrieve(created.id);
    assert.equal(got.id, created.id);
    assert.equal(got.amount, 8000);
    assert.equal(got.client_secret, created.client_secret);
    assert.deepEqual(got.metadata, created.metadata);
    assert.equal(got.status, 'requires_payment_method');
  });

  it('replays the same object for the same Idempotency-Key and body', async () => {
    const first = await createIntent(6000, 'rsv_idem', {
      idempotencyKey: 'reservation-rsv_idem',
    });
    const second = await createIntent(6000, 'rsv_idem', {
      idempotencyKey: 'reservation-rsv_idem',
    });
    assert.equal(second.id, first.id);
    assert.equal(second.client_secret, first.client_secret);
    assert.equal(second.created, first.created);
    assert.equal(second.lastResponse.headers['idempotent-replayed'], 'true');
    assert.equal(first.lastResponse.headers['idempotent-replayed'], undefined);
    assert.equal(second.lastResponse.requestId, first.lastResponse.requestId);
    assert.equal(fake.state.paymentIntents.size, 1);
  });

  it('rejects the same Idempotency-Key with a different body (idempotency_error)', async () => {
    await createIntent(6000, 'rsv_a', { idempotencyKey: 'key-reused' });
    await assert.rejects(
      createIntent(7000, 'rsv_a', { idempotencyKey: 'key-reused' }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeIdempotencyError);
        assert.equal(e.type, 'StripeIdempotencyError');
        assert.equal(e.rawType, 'idempotency_error');
        assert.equal(e.statusCode, 400);
        assert.match(e.message, /same parameters they were first used with/);
        return true;
      },
    );
    // A key is also bound to its endpoint.
    await assert.rejects(
      stripe.refunds.create(
        { payment_intent: 'pi_x' },
        { idempotencyKey: 'key-reused' },
      ),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeIdempotencyError);
        assert.match(e.message, /same endpoint/);
        return true;
      },
    );
    assert.equal(fake.state.paymentIntents.size, 1);
  });

  it('answers a wrong or missing secret key with 401 and Stripe’s error JSON', async () => {
    const wrong = clientFor(fake.url, 'sk_test_not_the_right_key_0000');
    await assert.rejects(
      wrong.paymentIntents.create({ amount: 5000, currency: 'jpy' }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeAuthenticationError);
        assert.equal(e.statusCode, 401);
        assert.equal(e.rawType, 'invalid_request_error');
        assert.equal(
          e.message,
          'Invalid API Key provided: sk_test_******************0000',
        );
        return true;
      },
    );
    const res = await fetch(`${fake.url}/v1/payment_intents/pi_123`);
    assert.equal(res.status, 401);
    const body = (await res.json()) as {
      error: { type: string; message: string };
    };
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /You did not provide an API key/);
    assert.equal(fake.state.paymentIntents.size, 0);
  });

  it('answers unknown paths and ids with 404 in Stripe’s error shape', async () => {
    const res = await fetch(`${fake.url}/v1/customers`, {
      headers: { Authorization: `Bearer ${fake.secretKey}` },
    });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const body = (await res.json()) as {
      error: { type: string; message: string };
    };
    assert.equal(body.error.type, 'invalid_request_error');
    assert.equal(
      body.error.message,
      'Unrecognized request URL (GET: /v1/customers). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.',
    );

    await assert.rejects(
      stripe.paymentIntents.retrieve('pi_missing'),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.statusCode, 404);
        assert.equal(e.code, 'resource_missing');
        assert.equal(e.param, 'id');
        assert.equal(e.message, "No such payment_intent: 'pi_missing'");
        return true;
      },
    );
    await assert.rejects(
      stripe.refunds.retrieve('re_missing'),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.message, "No such refund: 're_missing'");
        return true;
      },
    );
  });

  it('validates parameters like Stripe (missing, too small, unknown)', async () => {
    await assert.rejects(
      stripe.paymentIntents.create({
        currency: 'jpy',
      } as Stripe.PaymentIntentCreateParams),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'parameter_missing');
        assert.equal(e.param, 'amount');
        return true;
      },
    );
    await assert.rejects(
      stripe.paymentIntents.create({ amount: 10, currency: 'jpy' }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'amount_too_small');
        assert.equal(e.message, 'Amount must be at least ¥50');
        return true;
      },
    );
    await assert.rejects(
      stripe.rawRequest('POST', '/v1/payment_intents', {
        amount: 5000,
        currency: 'jpy',
        reservation: 'x',
      }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'parameter_unknown');
        assert.equal(e.param, 'reservation');
        return true;
      },
    );
    // stripe v23 (API 2026-09-30+) dropped `payment_method_types` from the
    // create params in favour of `allowed_payment_method_types`.
    await assert.rejects(
      stripe.rawRequest('POST', '/v1/payment_intents', {
        amount: 5000,
        currency: 'jpy',
        payment_method_types: ['card'],
      }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'parameter_unknown');
        assert.equal(e.param, 'payment_method_types');
        return true;
      },
    );
    const malformed = await fetch(`${fake.url}/v1/payment_intents`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${fake.secretKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'amount=%zz&currency=jpy',
    });
    assert.equal(malformed.status, 400);
    const malformedBody = (await malformed.json()) as {
      error: { type: string };
    };
    assert.equal(malformedBody.error.type, 'invalid_request_error');
    // Failed validation is not stored under the idempotency key.
    assert.equal(fake.state.paymentIntents.size, 0);
  });

  it('succeed() settles the intent and sends a signed payment_intent.succeeded', async () => {
    const pi = await createIntent(5500, 'rsv_paid');
    const { event, delivery } = await fake.succeed(pi.id);
    assert.equal(event.type, 'payment_intent.succeeded');
    assert.match(event.id, /^evt_/);
    assert.equal(delivery?.status, 200);
    assert.equal(delivery?.responseBody, '{"received":true}');

    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0];
    const header = signatureHeader(got);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.equal(
      got?.headers['content-type'],
      'application/json; charset=utf-8',
    );

    const verified = stripe.webhooks.constructEvent(
      got?.body ?? '',
      header,
      WEBHOOK_SECRET,
    );
    assert.equal(verified.id, event.id);
    assert.equal(verified.type, 'payment_intent.succeeded');
    assert.equal(verified.api_version, FAKE_API_VERSION);
    if (verified.type !== 'payment_intent.succeeded') throw new Error('type');
    const object = verified.data.object;
    assert.equal(object.id, pi.id);
    assert.equal(object.status, 'succeeded');
    assert.equal(object.amount_received, 5500);
    assert.equal(object.metadata.reservationId, 'rsv_paid');
    assert.equal(
      verified.data.previous_attributes?.status,
      'requires_payment_method',
    );

    const after = await stripe.paymentIntents.retrieve(pi.id, {
      expand: ['latest_charge'],
    });
    assert.equal(after.status, 'succeeded');
    assert.equal(after.amount_received, 5500);
    const charge = after.latest_charge;
    assert.ok(charge !== null && typeof charge === 'object');
    assert.match(charge.id, /^ch_/);
    assert.equal(charge.amount, 5500);
    assert.equal(charge.paid, true);
    assert.equal(charge.payment_intent, pi.id);
    assert.equal(typeof object.latest_charge, 'string');
    assert.equal(object.latest_charge, charge.id);
  });

  it('fail() sends payment_intent.payment_failed with last_payment_error', async () => {
    const pi = await createIntent(5500, 'rsv_declined');
    await fake.fail(pi.id);
    const got = receiver.received[0];
    const verified = stripe.webhooks.constructEvent(
      got?.body ?? '',
      signatureHeader(got),
      WEBHOOK_SECRET,
    );
    assert.equal(verified.type, 'payment_intent.payment_failed');
    if (verified.type !== 'payment_intent.payment_failed')
      throw new Error('type');
    assert.equal(verified.data.object.status, 'requires_payment_method');
    assert.equal(verified.data.object.last_payment_error?.type, 'card_error');
    assert.equal(
      verified.data.object.last_payment_error?.code,
      'card_declined',
    );
    assert.equal(
      verified.data.object.last_payment_error?.decline_code,
      'generic_decline',
    );
    const again = await stripe.paymentIntents.retrieve(pi.id);
    assert.equal(again.status, 'requires_payment_method');
    assert.equal(again.amount_received, 0);
    assert.equal(again.last_payment_error?.message, 'Your card was declined.');
    // The customer can still pay afterwards.
    const { object } = await fake.succeed(pi.id);
    assert.equal(object.status, 'succeeded');
    assert.equal(object.last_payment_error, null);
  });

  it('cancels an unpaid intent and refuses to cancel a paid one', async () => {
    const pi = await createIntent(5500, 'rsv_cancel');
    const canceled = await stripe.paymentIntents.cancel(pi.id, {
      cancellation_reason: 'requested_by_customer',
    });
    assert.equal(canceled.status, 'canceled');
    assert.equal(canceled.cancellation_reason, 'requested_by_customer');
    assert.equal(typeof canceled.canceled_at, 'number');
    await fake.settled();
    assert.equal(fake.state.events.at(-1)?.type, 'payment_intent.canceled');
    assert.equal(fake.state.deliveries.at(-1)?.status, 200);

    const paid = await createIntent(5500, 'rsv_paid_cancel');
    await fake.succeed(paid.id);
    await assert.rejects(
      stripe.paymentIntents.cancel(paid.id),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'payment_intent_unexpected_state');
        assert.match(e.message, /status of succeeded/);
        return true;
      },
    );
  });

  it('refunds a paid intent, partially then fully, with charge.refunded events', async () => {
    const pi = await createIntent(9000, 'rsv_refund');
    await fake.succeed(pi.id);
    receiver.received.length = 0;

    const partial = await stripe.refunds.create({
      payment_intent: pi.id,
      amount: 3000,
      metadata: { reservationId: 'rsv_refund' },
    });
    assert.match(partial.id, /^re_/);
    assert.equal(partial.object, 'refund');
    assert.equal(partial.status, 'succeeded');
    assert.equal(partial.amount, 3000);
    assert.equal(partial.currency, 'jpy');
    assert.equal(partial.payment_intent, pi.id);
    assert.match(String(partial.charge), /^ch_/);
    assert.deepEqual(partial.metadata, { reservationId: 'rsv_refund' });

    const fetched = await stripe.refunds.retrieve(partial.id);
    assert.equal(fetched.id, partial.id);
    assert.equal(fetched.amount, 3000);

    const rest = await stripe.refunds.create({ payment_intent: pi.id });
    assert.equal(rest.amount, 6000);

    await fake.settled();
    const events = receiver.received.map((r) =>
      stripe.webhooks.constructEvent(
        r.body,
        signatureHeader(r),
        WEBHOOK_SECRET,
      ),
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['charge.refunded', 'charge.refunded'],
    );
    const [first, second] = events;
    if (first?.type !== 'charge.refunded' || second?.type !== 'charge.refunded')
      throw new Error('type');
    assert.equal(first.data.object.amount_refunded, 3000);
    assert.equal(first.data.object.refunded, false);
    assert.equal(second.data.object.amount_refunded, 9000);
    assert.equal(second.data.object.refunded, true);
    assert.equal(second.data.previous_attributes?.amount_refunded, 3000);
    assert.equal(first.request?.id, partial.lastResponse.requestId);

    await assert.rejects(
      stripe.refunds.create({ payment_intent: pi.id }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'charge_already_refunded');
        return true;
      },
    );
  });

  it('refuses to refund an unpaid intent or more than was paid', async () => {
    const unpaid = await createIntent(5000, 'rsv_unpaid');
    await assert.rejects(
      stripe.refunds.create({ payment_intent: unpaid.id }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.match(e.message, /does not have a successful charge to refund/);
        return true;
      },
    );
    await fake.succeed(unpaid.id);
    await assert.rejects(
      stripe.refunds.create({ payment_intent: unpaid.id, amount: 5001 }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'amount_too_large');
        assert.equal(
          e.message,
          'Refund amount (¥5001) is greater than unrefunded amount on charge (¥5000)',
        );
        return true;
      },
    );
    assert.equal(fake.state.refunds.size, 0);
  });

  it('failNextRefunds() makes refunds fail as StripeErrors, then lets a retry with the same key through', async () => {
    const pi = await createIntent(7000, 'rsv_retry');
    await fake.succeed(pi.id);
    fake.failNextRefunds(2, 'card_error');
    const attempt = () =>
      stripe.refunds.create(
        { payment_intent: pi.id },
        { idempotencyKey: 'refund-rsv_retry' },
      );

    for (let i = 0; i < 2; i++) {
      await assert.rejects(attempt(), (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeError);
        assert.ok(e instanceof Stripe.errors.StripeCardError);
        assert.equal(e.statusCode, 402);
        assert.equal(e.code, 'card_declined');
        assert.equal(e.headers?.['stripe-should-retry'], 'false');
        return true;
      });
    }
    assert.equal(fake.state.refunds.size, 0);
    const refund = await attempt();
    assert.equal(refund.status, 'succeeded');
    assert.equal(refund.amount, 7000);
    // A fourth call with the key is a replay, not a second refund.
    const replay = await attempt();
    assert.equal(replay.id, refund.id);
    assert.equal(fake.state.refunds.size, 1);

    fake.failNextRefunds(1);
    const other = await createIntent(5000, 'rsv_retry2');
    await fake.succeed(other.id);
    await assert.rejects(
      stripe.refunds.create({ payment_intent: other.id }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.statusCode, 400);
        assert.equal(e.code, 'balance_insufficient');
        return true;
      },
    );
    assert.deepEqual(
      fake.state.requests
        .filter((r) => r.path === '/v1/refunds')
        .map((r) => r.status),
      [402, 402, 200, 200, 400],
    );
  });

  it('a 500 api_error is retried by the library itself with the same idempotency key', async () => {
    const pi = await createIntent(5000, 'rsv_500');
    await fake.succeed(pi.id);
    const retrying = clientFor(fake.url, fake.secretKey, {
      maxNetworkRetries: 1,
    });
    fake.failNextRefunds(1, 'api_error');
    const refund = await retrying.refunds.create({ payment_intent: pi.id });
    assert.equal(refund.status, 'succeeded');
    const attempts = fake.state.requests.filter(
      (r) => r.path === '/v1/refunds',
    );
    assert.deepEqual(
      attempts.map((r) => r.status),
      [500, 200],
    );
    assert.equal(attempts[0]?.idempotencyKey, attempts[1]?.idempotencyKey);

    fake.failNextRefunds(1, 'api_error');
    await assert.rejects(
      stripe.refunds.create({ payment_intent: pi.id }),
      (e: unknown) => {
        assert.ok(e instanceof Stripe.errors.StripeAPIError);
        assert.equal(e.statusCode, 500);
        return true;
      },
    );
  });

  describe('webhook signatures', () => {
    it('signPayload() matches the library’s own test header', () => {
      const payload = '{"id":"evt_1","object":"event"}';
      const t = 1_780_000_000;
      assert.equal(
        signPayload(payload, WEBHOOK_SECRET, t),
        stripe.webhooks.generateTestHeaderString({
          payload,
          secret: WEBHOOK_SECRET,
          timestamp: t,
        }),
      );
    });

    it('constructEvent rejects a tampered payload, a wrong secret and an old timestamp', async () => {
      const pi = await createIntent(5500, 'rsv_sig');
      await fake.succeed(pi.id);
      const got = receiver.received[0];
      const body = got?.body ?? '';
      const header = signatureHeader(got);
      assert.equal(
        stripe.webhooks.constructEvent(body, header, WEBHOOK_SECRET).type,
        'payment_intent.succeeded',
      );

      const tampered = body.replace(
        '"amount_received": 5500',
        '"amount_received": 1',
      );
      assert.notEqual(tampered, body);
      assert.throws(
        () => stripe.webhooks.constructEvent(tampered, header, WEBHOOK_SECRET),
        (e: unknown) => {
          assert.ok(
            e instanceof Stripe.errors.StripeSignatureVerificationError,
          );
          assert.match(
            e.message,
            /No signatures found matching the expected signature/,
          );
          return true;
        },
      );
      assert.throws(
        () =>
          stripe.webhooks.constructEvent(body, header, 'whsec_someone_else'),
        Stripe.errors.StripeSignatureVerificationError,
      );
      const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
      assert.throws(
        () =>
          stripe.webhooks.constructEvent(
            body,
            signPayload(body, WEBHOOK_SECRET, sixMinutesAgo),
            WEBHOOK_SECRET,
          ),
        (e: unknown) => {
          assert.ok(
            e instanceof Stripe.errors.StripeSignatureVerificationError,
          );
          assert.equal(e.message, 'Timestamp outside the tolerance zone');
          return true;
        },
      );
      // Four minutes is inside the default five-minute tolerance.
      const fourMinutesAgo = Math.floor(Date.now() / 1000) - 4 * 60;
      assert.equal(
        stripe.webhooks.constructEvent(
          body,
          signPayload(body, WEBHOOK_SECRET, fourMinutesAgo),
          WEBHOOK_SECRET,
        ).id,
        JSON.parse(body).id,
      );
    });

    it('sendEvent() redelivers the same event id, re-signed or replayed byte for byte', async () => {
      const pi = await createIntent(5500, 'rsv_dup');
      const { event, delivery } = await fake.succeed(pi.id);
      assert.ok(delivery);

      const replayed = await fake.sendEvent(event, { replay: true });
      assert.equal(replayed.payload, delivery.payload);
      assert.equal(replayed.signature, delivery.signature);

      const resent = await fake.sendEvent(event, {
        timestamp: Math.floor(Date.now() / 1000) + 1,
      });
      assert.equal(resent.payload, delivery.payload);
      assert.notEqual(resent.signature, delivery.signature);

      const old = await fake.sendEvent(event, {
        timestamp: Math.floor(Date.now() / 1000) - 600,
      });
      const wrongSecret = await fake.sendEvent(event, {
        secret: 'whsec_wrong',
      });

      assert.equal(receiver.received.length, 5);
      const ids = receiver.received.map(
        (r) => (JSON.parse(r.body) as { id: string }).id,
      );
      assert.deepEqual(ids, [event.id, event.id, event.id, event.id, event.id]);
      const verdicts = receiver.received.map((r) => {
        try {
          stripe.webhooks.constructEvent(
            r.body,
            signatureHeader(r),
            WEBHOOK_SECRET,
          );
          return 'ok';
        } catch (e) {
          return e instanceof Stripe.errors.StripeSignatureVerificationError
            ? 'rejected'
            : 'error';
        }
      });
      assert.deepEqual(verdicts, ['ok', 'ok', 'ok', 'rejected', 'rejected']);
      assert.equal(
        receiver.received[1]?.headers['stripe-signature'],
        delivery.signature,
      );
      assert.equal(old.status, 200);
      assert.equal(wrongSecret.signature.startsWith('t='), true);
    });

    it('records a failed delivery (receiver answering 500) for the test to see', async () => {
      receiver.setStatus(500);
      const pi = await createIntent(5500, 'rsv_500hook');
      const { delivery } = await fake.succeed(pi.id);
      assert.equal(delivery?.status, 500);
      assert.equal(fake.state.deliveries.at(-1)?.status, 500);
      assert.equal(
        fake.state.deliveries.at(-1)?.event.type,
        'payment_intent.succeeded',
      );
    });
  });
});

describe('stripe fake webhook settings', () => {
  it('sends only enabled event types, to the URL set later with setWebhook()', async () => {
    const receiver = await startReceiver();
    const fake = await startStripeFake({
      enabledEvents: ['payment_intent.succeeded'],
    });
    try {
      const stripe = clientFor(fake.url, fake.secretKey);
      const early = await stripe.paymentIntents.create({
        amount: 5000,
        currency: 'jpy',
        allowed_payment_method_types: ['card'],
      });
      assert.deepEqual(early.allowed_payment_method_types, ['card']);
      assert.deepEqual(early.payment_method_types, ['card']);
      // No webhook yet: the event is created but goes nowhere.
      const before = await fake.succeed(early.id);
      assert.equal(before.delivery, null);
      assert.equal(fake.state.events.length, 1);

      fake.setWebhook(receiver.url, 'whsec_later');
      assert.equal(fake.webhookSecret, 'whsec_later');
      const pi = await stripe.paymentIntents.create({
        amount: 5000,
        currency: 'jpy',
      });
      await stripe.paymentIntents.cancel(pi.id);
      const paid = await stripe.paymentIntents.create({
        amount: 5000,
        currency: 'jpy',
      });
      await fake.succeed(paid.id);
      await fake.settled();

      assert.deepEqual(
        fake.state.events.map((e) => e.type),
        [
          'payment_intent.succeeded',
          'payment_intent.canceled',
          'payment_intent.succeeded',
        ],
      );
      assert.equal(receiver.received.length, 1);
      const got = receiver.received[0];
      const event = Stripe.webhooks.constructEvent(
        got?.body ?? '',
        signatureHeader(got),
        'whsec_later',
      );
      assert.equal(event.type, 'payment_intent.succeeded');
      if (event.type !== 'payment_intent.succeeded') throw new Error('type');
      assert.equal(event.data.object.id, paid.id);
    } finally {
      await fake.close();
      await receiver.close();
    }
  });
});

describe('parseStripeForm', () => {
  it('decodes Stripe’s bracket notation, arrays and + as space', () => {
    assert.deepEqual(
      parseStripeForm(
        'amount=5500&currency=jpy&metadata[reservationId]=rsv%201&metadata[0]=zero&automatic_payment_methods[enabled]=true&expand[]=latest_charge&payment_method_types[0]=card&payment_method_types[1]=konbini&description=a+b',
      ),
      {
        amount: '5500',
        currency: 'jpy',
        metadata: { reservationId: 'rsv 1', 0: 'zero' },
        automatic_payment_methods: { enabled: 'true' },
        expand: ['latest_charge'],
        payment_method_types: ['card', 'konbini'],
        description: 'a b',
      },
    );
  });
});
