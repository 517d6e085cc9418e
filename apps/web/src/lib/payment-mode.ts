import { paymentsEnabled } from '@/config/env';
import { formatYenSuffix } from '@/lib/format';

/** How every fee reads without online payment (README, Payments). */
export const PAY_AT_COURSE =
  'レッスン料は当日ゴルフ場でお支払いください（現地払い）';

/**
 * The copy that is true in the payment mode in force: `online` with a Stripe
 * publishable key configured, `atCourse` (現地払い) otherwise. Called while
 * rendering, so a page never states the other mode's terms.
 */
export const byPaymentMode = <T>(copy: { online: T; atCourse: T }): T =>
  paymentsEnabled() ? copy.online : copy.atCourse;

/** A lesson fee as lists and cards show it: 17,000円, with （現地払い） when it is paid at the course. */
export const lessonFeeLabel = (fee: number): string =>
  byPaymentMode({
    online: formatYenSuffix(fee),
    atCourse: `${formatYenSuffix(fee)}（現地払い）`,
  });
