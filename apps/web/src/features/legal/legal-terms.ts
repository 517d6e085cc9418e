/**
 * The service's own charges as the legal pages state them (README, Reviews,
 * trust and the legal pages; the Q&A and the two menus state the same). The system fee and card payment
 * exist only with online payment configured; without it the lesson fee is
 * paid at the course and nothing is charged or refunded online.
 */
export const SYSTEM_FEE_LABEL = '550円（税込）';
export const COMMISSION_LABEL = 'レッスン料の10%';
