import {
  Elements,
  ExpressCheckoutElement,
  PaymentElement,
  useElements,
  useStripe,
} from '@stripe/react-stripe-js';
import type {
  PaymentIntent,
  StripeElementsOptions,
  StripeError,
} from '@stripe/stripe-js';
import type { ReactNode } from 'react';
import { getStripe } from './stripe-loader';

/**
 * The payment components, in a module of their own that only a configured
 * Stripe key loads (see stripe-loader.ts). `PaymentSheet` is Stripe's Payment
 * Element; `PaymentRequestButton` is the Express Checkout Element, which
 * react-stripe-js 7 offers in place of the retired Payment Request Button.
 * `usePaymentConfirmation` is the one place that talks to Stripe.js itself,
 * so the payment step's tests replace this module and nothing deeper.
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

/** What the payment step needs of a Stripe error to explain it in Japanese. */
export type PaymentFailure = Pick<
  StripeError,
  'type' | 'code' | 'decline_code' | 'message'
>;

/**
 * The result of 支払う: the PaymentIntent's status when Stripe took the
 * payment (`succeeded`, or `processing` for a method that settles later),
 * or why not (`failure` null: Stripe.js threw instead of answering).
 */
export type PaymentAttempt =
  | { ok: true; status: PaymentIntent['status'] }
  | { ok: false; failure: PaymentFailure | null };

/**
 * Confirms the PaymentIntent of the surrounding PaymentProvider with what the
 * member typed into the PaymentSheet. `redirect: 'if_required'`: cards finish
 * here; a method that needs a redirect comes back to `returnUrl`.
 */
export const usePaymentConfirmation = () => {
  const stripe = useStripe();
  const elements = useElements();
  const confirm = async (returnUrl: string): Promise<PaymentAttempt> => {
    if (!stripe || !elements) return { ok: false, failure: null };
    try {
      const result = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: returnUrl },
      });
      if (result.error) {
        const { type, code, decline_code, message } = result.error;
        return { ok: false, failure: { type, code, decline_code, message } };
      }
      return { ok: true, status: result.paymentIntent.status };
    } catch {
      return { ok: false, failure: null };
    }
  };
  return { ready: stripe !== null && elements !== null, confirm };
};
