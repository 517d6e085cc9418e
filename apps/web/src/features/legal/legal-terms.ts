/**
 * The service's own charges as the legal pages state them (README, Reviews,
 * trust and the legal pages; the Q&A and the two menus state the same). The system fee and card payment
 * exist only with online payment configured; without it the lesson fee is
 * paid at the course and nothing is charged or refunded online.
 */
export const SYSTEM_FEE_LABEL = '550円（税込）';
export const COMMISSION_LABEL = 'レッスン料の10%';

/**
 * The cancellation rule of 利用規約 第5条 as the Q&A and the amateur menu
 * state it (the API refuses a cancellation from the lesson's day on:
 * CancelClosed). The refund sentences exist only with online payment; at
 * the course nothing has been paid, so nothing is refunded.
 */
export const CANCEL_DEADLINE_LABEL = 'レッスン前日の23時59分（日本時間）';
