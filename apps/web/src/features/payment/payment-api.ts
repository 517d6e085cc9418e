import type {
  Payment,
  PaymentConfirmInput,
  PaymentStart,
  PaymentStartInput,
} from '@proam/contract';
import { api, postArg } from '@/lib/api';

/**
 * The payment step's calls (docs/api.md, Payments). Both are silent: the
 * payment page explains each failure in place (満員, the hold gone, Stripe
 * unreachable) instead of the エラー alert, and keeps what was typed.
 * Both change the member's reservation (pending, then confirmed), so the
 * lesson lists are fetched again.
 */
export const paymentApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Holds a place for 15 minutes and answers the PaymentIntent's client
     * secret. Calling again during the hold answers the same intent.
     */
    startPayment: build.mutation<PaymentStart, PaymentStartInput>({
      query: postArg('/payment/start', { silent: true }),
      invalidatesTags: ['Schedule'],
    }),
    /**
     * Stripe.js reported the payment done: the server asks Stripe and
     * answers the payment as it is now (`pending` while Stripe has not
     * settled it yet).
     */
    confirmPayment: build.mutation<Payment, PaymentConfirmInput>({
      query: postArg('/payment/confirm', { silent: true }),
      invalidatesTags: ['Schedule', 'Payment'],
    }),
  }),
});

export const { useStartPaymentMutation, useConfirmPaymentMutation } =
  paymentApi;

/**
 * What is left of a payment hold, `14:59` (never below `00:00`). Here rather
 * than in a component because the schedule feature's お支払い待ち card shows
 * the same clock and may import only this module of the payment feature.
 */
export const formatHoldRemaining = (remainingMs: number): string => {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${mm}:${ss}`;
};

/** Milliseconds until `holdExpiresAt` (negative once it has passed). */
export const holdRemainingMs = (holdExpiresAt: string, now: number): number =>
  new Date(holdExpiresAt).getTime() - now;

/** The path of the payment step for a lesson (`#/payment/:scheduleId`). */
export const paymentPath = (scheduleId: string): string =>
  `/payment/${encodeURIComponent(scheduleId)}`;
