import type { Stripe } from '@stripe/stripe-js';

/**
 * Card payments (README.md, Web app: Payment): with a Stripe publishable key in
 * the run-time config, Stripe.js and the payment components are loaded once,
 * lazily, at startup; without one nothing is loaded and nothing fails. Only
 * dynamic imports live here, so the public pages' first load does not grow.
 */
type Started = {
  stripe: Promise<Stripe | null>;
  /**
   * The payment components' chunk, fetched ahead so the payment step opens at
   * once. Not typed by that module: it imports `getStripe` from here, and a
   * type import back would make the two a cycle.
   */
  components: Promise<unknown>;
};

let started: Started | null = null;

const loadStripeJs = async (key: string): Promise<Stripe | null> => {
  const { loadStripe } = await import('@stripe/stripe-js');
  return loadStripe(key);
};

/** Null without a key (runtimeConfig.stripePublishableKey); otherwise the one running initialisation. */
export const startPayments = (key: string | null): Started | null => {
  if (!key) return null;
  started ??= {
    // A failed load (offline, blocked script) leaves payments unavailable, nothing more.
    stripe: loadStripeJs(key).catch(() => null),
    components: import('./payment-elements').catch(() => null),
  };
  return started;
};

/** The Stripe instance promise, or null when payments are not configured. */
export const getStripe = (): Promise<Stripe | null> | null =>
  started?.stripe ?? null;

/** Tests only: forget the running initialisation. */
export const resetPaymentsForTests = (): void => {
  started = null;
};
