import { afterEach, describe, expect, it, vi } from 'vitest';

const fakeStripe = { elements: vi.fn() };
const loadStripe = vi.fn(async (_key: string) => fakeStripe);

// No network: Stripe.js and its React bindings are replaced.
vi.mock('@stripe/stripe-js', () => ({ loadStripe }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: () => null,
  PaymentElement: () => null,
  ExpressCheckoutElement: () => null,
  useStripe: () => null,
  useElements: () => null,
}));

const { getStripe, resetPaymentsForTests, startPayments } =
  await import('../stripe-loader');

afterEach(() => {
  resetPaymentsForTests();
  loadStripe.mockClear();
});

describe('Stripe initialisation', () => {
  it('without a key loads nothing and fails nothing', async () => {
    expect(startPayments(null)).toBeNull();
    expect(startPayments('')).toBeNull();
    expect(getStripe()).toBeNull();
    await Promise.resolve();
    expect(loadStripe).not.toHaveBeenCalled();
  });

  it('with a key loads Stripe once with that key and registers the components', async () => {
    const first = startPayments('pk_test_123');
    const second = startPayments('pk_test_123');
    expect(second).toBe(first);
    expect(await first!.stripe).toBe(fakeStripe);
    expect(await getStripe()).toBe(fakeStripe);
    expect(loadStripe).toHaveBeenCalledTimes(1);
    expect(loadStripe).toHaveBeenCalledWith('pk_test_123');
    const components = await first!.components;
    expect(components).not.toBeNull();
    expect(Object.keys(components!).sort()).toEqual([
      'PaymentProvider',
      'PaymentRequestButton',
      'PaymentSheet',
      'usePaymentConfirmation',
    ]);
  });

  it('a failing Stripe.js load leaves payments unavailable instead of failing', async () => {
    loadStripe.mockRejectedValueOnce(new Error('blocked'));
    const started = startPayments('pk_test_456');
    expect(await started!.stripe).toBeNull();
  });
});
