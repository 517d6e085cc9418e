import { useId, useState, type FormEvent } from 'react';
import type { PaymentIntent } from '@stripe/stripe-js';
import { formatYenSuffix } from '@/lib/format';
import {
  PaymentProvider,
  PaymentSheet,
  usePaymentConfirmation,
} from '../payment-elements';
import { stripeFailureMessage } from './payment-messages';

type CheckoutFormProps = {
  clientSecret: string;
  /** What the card is charged (lesson fee + システム利用料). */
  total: number;
  /** Where Stripe sends the member back after a redirect-based method. */
  returnUrl: string;
  /** Stripe took the payment; the page asks the server to confirm it. */
  onPaid: (status: PaymentIntent['status']) => void;
  /**
   * Before trying again after a failure: whether this intent still holds
   * the place (a declined payment may have released it). False when the
   * page has replaced the hold, or shown why it could not.
   */
  holdStillValid: () => Promise<boolean>;
};

type FormProps = Omit<CheckoutFormProps, 'clientSecret'>;

const Form = ({ total, returnUrl, onPaid, holdStillValid }: FormProps) => {
  const { ready, confirm } = usePaymentConfirmation();
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const errorId = useId();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (paying || !ready) return;
    setPaying(true);
    setError(null);
    if (failed && !(await holdStillValid())) {
      setPaying(false);
      return;
    }
    const attempt = await confirm(returnUrl);
    setPaying(false);
    // The Payment Element stays mounted: what was typed is still there to fix.
    if (!attempt.ok) {
      setFailed(true);
      setError(stripeFailureMessage(attempt.failure));
    } else onPaid(attempt.status);
  };

  return (
    <form
      className="checkout-form"
      onSubmit={(e) => void onSubmit(e)}
      aria-label="カード情報"
      aria-busy={paying}
    >
      <div className="checkout-form__element">
        <PaymentSheet />
      </div>
      {error && (
        <p id={errorId} className="checkout-form__error" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="button button--primary checkout-form__pay"
        disabled={paying || !ready}
        aria-describedby={error ? errorId : undefined}
      >
        {paying ? 'お支払い処理中…' : '支払う'}
      </button>
      <p className="checkout-form__note">
        「支払う」を押すと、{formatYenSuffix(total)}
        （税込）がカードに請求されます。カード情報は決済代行会社（Stripe）が管理し、当サービスには保存されません。
      </p>
    </form>
  );
};

/**
 * Stripe's Payment Element with 支払う, in a chunk of its own that the
 * payment page loads lazily (it brings Stripe's React bindings).
 */
const CheckoutForm = ({ clientSecret, ...rest }: CheckoutFormProps) => (
  <PaymentProvider options={{ clientSecret, locale: 'ja' }}>
    <Form {...rest} />
  </PaymentProvider>
);

export default CheckoutForm;
