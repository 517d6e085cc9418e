import { formatYenSuffix } from '@/lib/format';

type PaymentBreakdownProps = {
  /** The lesson fee (レッスン料). */
  amount: number;
  /** システム利用料, tax included. */
  serviceFee: number;
};

/** レッスン料 + システム利用料 = 合計（税込）: what the card is charged. */
export const PaymentBreakdown = ({
  amount,
  serviceFee,
}: PaymentBreakdownProps) => (
  <dl className="payment-breakdown">
    <div className="payment-breakdown__row">
      <dt>レッスン料</dt>
      <dd>{formatYenSuffix(amount)}</dd>
    </div>
    <div className="payment-breakdown__row">
      <dt>システム利用料</dt>
      <dd>{formatYenSuffix(serviceFee)}</dd>
    </div>
    <div className="payment-breakdown__row payment-breakdown__total">
      <dt>合計（税込）</dt>
      <dd>{formatYenSuffix(amount + serviceFee)}</dd>
    </div>
  </dl>
);
