import {
  Elements,
  ExpressCheckoutElement,
  PaymentElement,
} from '@stripe/react-stripe-js';
import type { StripeElementsOptions } from '@stripe/stripe-js';
import type { ReactNode } from 'react';
import { getStripe } from './stripe-loader';

/**
 * The payment components, in a module of their own that only a configured
 * Stripe key loads (see stripe-loader.ts). `PaymentSheet` is Stripe's Payment
 * Element; `PaymentRequestButton` is the Express Checkout Element, which
 * react-stripe-js 7 offers in place of the retired Payment Request Button.
 */
export const PaymentProvider = ({
  options,
  children,
}: {
  options?: StripeElementsOptions;
  children: ReactNode;
}) => (
  <Elements stripe={getStripe()} options={options}>
    {children}
  </Elements>
);

export const PaymentSheet = PaymentElement;
export const PaymentRequestButton = ExpressCheckoutElement;
