import { Link } from 'react-router';
import type { Schedule } from '@proam/contract';
import { useNow } from '@/hooks/use-now';
import { formatDate } from '@/lib/format';
import {
  formatHoldRemaining,
  holdRemainingMs,
  paymentPath,
} from '@/features/payment/payment-api';

/** The member's reservation waits for its online payment (a 15-minute hold). */
export const isPaymentPending = (s: Schedule): boolean =>
  s.myReservation?.status === 'pending';

type PendingPaymentProps = { schedule: Schedule };

/**
 * 「お支払い待ち（残り 12:34）」 on a held reservation, ticking each second;
 * once the hold has run out, that it has (the server frees the place).
 */
export const PendingPaymentNote = ({ schedule: s }: PendingPaymentProps) => {
  const now = useNow(1000);
  const expiresAt = s.myReservation?.holdExpiresAt;
  const remaining = expiresAt ? holdRemainingMs(expiresAt, now) : null;
  const expired = remaining !== null && remaining <= 0;
  return (
    <p
      className={`payment-pending${expired ? ' payment-pending--expired' : ''}`}
    >
      {expired
        ? 'お支払い期限が過ぎました。空きがあれば、もう一度予約できます。'
        : remaining === null
          ? 'お支払い待ち'
          : `お支払い待ち（残り ${formatHoldRemaining(remaining)}）`}
    </p>
  );
};

type PayLinkProps = {
  schedule: Schedule;
  /** Given to the link, so the focus can follow a change. */
  focusRef?: (el: HTMLElement | null) => void;
};

/** お支払いへ: back to the payment step of a held reservation. */
export const PayLink = ({ schedule: s, focusRef }: PayLinkProps) => (
  <Link
    ref={focusRef}
    to={paymentPath(s.id)}
    className="button button--primary"
    aria-label={`${formatDate(s.date)} ${s.startTime}〜のレッスンのお支払いへ`}
  >
    お支払いへ
  </Link>
);

/** 「お支払い済み」 or 「返金済み」 on a reservation paid online; nothing otherwise. */
export const PaymentMark = ({ schedule: s }: { schedule: Schedule }) => {
  const status = s.myReservation?.paymentStatus;
  if (status === 'paid')
    return (
      <span className="payment-mark payment-mark--paid">お支払い済み</span>
    );
  if (status === 'refunded')
    return (
      <span className="payment-mark payment-mark--refunded">返金済み</span>
    );
  return null;
};
