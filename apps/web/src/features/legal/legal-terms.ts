import { paymentsEnabled } from '@/config/env';

/**
 * The service's own charges as the legal pages state them (PRODUCT.md Wave 2;
 * the Q&A and the two menus state the same). The system fee and card payment
 * exist only with online payment configured; without it the lesson fee is
 * paid at the course and nothing is charged or refunded online.
 */
export const SYSTEM_FEE_LABEL = '550円（税込）';
export const COMMISSION_LABEL = 'レッスン料の10%';
/** How every fee reads without online payment (PRODUCT.md, Reserving). */
export const PAY_AT_COURSE =
  'レッスン料は当日ゴルフ場でお支払いください（現地払い）';

/**
 * The copy that is true in the payment mode in force: `online` with a Stripe
 * publishable key configured, `atCourse` (現地払い) otherwise. Called while
 * rendering, so a page never states the other mode's terms.
 */
export const byPaymentMode = <T>(copy: { online: T; atCourse: T }): T =>
  paymentsEnabled() ? copy.online : copy.atCourse;
