import Stripe from 'stripe';
import type { StripeConfig } from '../config.js';

/**
 * The server's Stripe client. STRIPE_API_BASE becomes the library's host,
 * port and protocol, so tests point it at a Stripe-compatible server
 * (test-support/stripe-fake.ts). Two retries of a failed network call (the
 * library sends the same idempotency key again), and 10 s per attempt, so a
 * Stripe that does not answer turns into 503 within a request's time.
 */
export function createStripeClient(config: StripeConfig): Stripe {
  const base = new URL(config.apiBase);
  return new Stripe(config.secretKey, {
    host: base.hostname,
    ...(base.port ? { port: base.port } : {}),
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 2,
    timeout: 10_000,
    appInfo: { name: 'ProAm Connect' },
  });
}

/** Stripe's own message for a failed call (for logs and a refund's lastError); never the key. */
export function stripeErrorMessage(err: unknown): string {
  if (err instanceof Stripe.errors.StripeError)
    return `${err.type}${err.code ? ` ${err.code}` : ''}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
