import { afterEach, describe, expect, it } from 'vitest';
import { runtimeConfig } from '@/config/env';
import { lessonFeeLabel } from '../payment-mode';

describe('lessonFeeLabel', () => {
  const saved = runtimeConfig.stripePublishableKey;
  afterEach(() => {
    runtimeConfig.stripePublishableKey = saved;
  });

  it('says 現地払い beside the fee without online payment', () => {
    runtimeConfig.stripePublishableKey = null;
    expect(lessonFeeLabel(17000)).toBe('17,000円（現地払い）');
  });

  it('is the fee alone when lessons are paid online', () => {
    runtimeConfig.stripePublishableKey = 'pk_test_fee';
    expect(lessonFeeLabel(17000)).toBe('17,000円');
  });
});
