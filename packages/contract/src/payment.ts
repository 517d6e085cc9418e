import { Type, type Static } from 'typebox';
import {
  DateSchema,
  IdSchema,
  InputObject,
  InstantSchema,
  MoneySchema,
  Paging,
  StringEnum,
  TimeSchema,
  Timestamps,
} from './common.js';
import { Charge } from './fields.js';

/**
 * (wave 2) Online payment (API.md, Payments). Money is integer yen
 * everywhere; every amount a member pays is tax included.
 */

/** システム利用料 per reservation paid online, tax included. */
export const SERVICE_FEE = 550;
/** How long /payment/start holds a place. */
export const HOLD_MINUTES = 15;
/**
 * Unpaid holds one amateur may have running at once (a new one beyond: 409):
 * otherwise one account could keep many lessons full, renewing each hold as
 * it ends.
 */
export const HOLDS_PER_MEMBER_MAX = 3;
/** The company's commission on the pros' lesson fees, in percent. */
export const COMMISSION_PERCENT = 10;
/** Japan's consumption tax rate, in percent: a receipt shows the tax it includes. */
export const TAX_PERCENT = 10;

/** The commission on a month's lesson fees: 10 %, rounded down to the yen once, on the total. */
export const commissionOf = (grossFee: number): number =>
  Math.floor((grossFee * COMMISSION_PERCENT) / 100);

/** The consumption tax contained in a tax-included amount, rounded down (内消費税). */
export const taxIncludedIn = (total: number): number =>
  Math.floor((total * TAX_PERCENT) / (100 + TAX_PERCENT));

export const PaymentStartInputSchema = InputObject({ scheduleId: IdSchema });
export type PaymentStartInput = Static<typeof PaymentStartInputSchema>;

/**
 * A payment hold. `amount` is the lesson fee and `serviceFee` the system fee:
 * the card is charged `amount + serviceFee`. `reservationId` names this
 * payment of the reservation (a new hold after an expired one is a new id).
 */
export const PaymentStartSchema = Type.Object({
  reservationId: Type.String(),
  clientSecret: Type.String(),
  ...Charge,
  holdExpiresAt: InstantSchema,
});
export type PaymentStart = Static<typeof PaymentStartSchema>;

/** The client's report that Stripe.js confirmed the payment; the server asks Stripe. */
export const PaymentConfirmInputSchema = InputObject({
  reservationId: IdSchema,
});
export type PaymentConfirmInput = Static<typeof PaymentConfirmInputSchema>;

export const PAYMENT_RECORD_STATUS = [
  'pending',
  'paid',
  'refunded',
  'failed',
] as const;
export const PaymentRecordStatusSchema = StringEnum(PAYMENT_RECORD_STATUS);
export type PaymentRecordStatus = Static<typeof PaymentRecordStatusSchema>;

/** One payment in 支払い履歴; `receiptNo` once it is paid (領収書). */
export const PaymentSchema = Type.Object({
  reservationId: Type.String(),
  scheduleId: Type.String(),
  date: DateSchema,
  startTime: TimeSchema,
  place: Type.String(),
  proId: Type.String(),
  proName: Type.String(),
  ...Charge,
  status: PaymentRecordStatusSchema,
  paidAt: Type.Optional(InstantSchema),
  refundedAt: Type.Optional(InstantSchema),
  receiptNo: Type.Optional(Type.String()),
  createdAt: InstantSchema,
});
export type Payment = Static<typeof PaymentSchema>;

export const PaymentListInputSchema = InputObject({
  ...Paging(50, 20),
});
export type PaymentListInput = Static<typeof PaymentListInputSchema>;

export const MonthSchema = Type.String({
  pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$',
  description: 'YYYY-MM',
});

export const StatementInputSchema = InputObject({
  proId: IdSchema,
  month: MonthSchema,
});
export type StatementInput = Static<typeof StatementInputSchema>;

/** A pro's month in yen: what the lessons earned, the company's part, and what is paid out. */
const PayoutFigures = {
  grossFee: Type.Integer({ minimum: 0 }),
  commission: Type.Integer({ minimum: 0 }),
  payout: Type.Integer({ minimum: 0 }),
};

/**
 * 売上明細: a pro's lessons held in `month` (Japan dates) with confirmed paid
 * reservations. `participants` counts those reservations; `grossFee` is
 * Σ fee × participants; `commission = commissionOf(grossFee)`;
 * `payout = grossFee − commission`.
 */
export const StatementSchema = Type.Object({
  month: MonthSchema,
  proId: Type.String(),
  proName: Type.String(),
  lessons: Type.Array(
    Type.Object({
      scheduleId: Type.String(),
      date: DateSchema,
      startTime: TimeSchema,
      place: Type.String(),
      fee: MoneySchema,
      participants: Type.Integer({ minimum: 0 }),
    }),
  ),
  ...PayoutFigures,
});
export type Statement = Static<typeof StatementSchema>;

/** Admins: every pro's month, for the monthly transfers (CSV in the admin area). */
export const StatementsInputSchema = InputObject({ month: MonthSchema });
export type StatementsInput = Static<typeof StatementsInputSchema>;

export const StatementSummarySchema = Type.Object({
  proId: Type.String(),
  proName: Type.String(),
  lessons: Type.Integer({ minimum: 0 }),
  participants: Type.Integer({ minimum: 0 }),
  ...PayoutFigures,
});
export type StatementSummary = Static<typeof StatementSummarySchema>;

export const StatementsSchema = Type.Object({
  month: MonthSchema,
  pros: Type.Array(StatementSummarySchema),
});
export type Statements = Static<typeof StatementsSchema>;

export const REFUND_STATUS = ['pending', 'succeeded', 'failed'] as const;
export const RefundStatusSchema = StringEnum(REFUND_STATUS);
export type RefundStatus = Static<typeof RefundStatusSchema>;

/**
 * A refund owed to a member (a cancellation in time, a lesson called off).
 * Recorded with the change that caused it and sent to Stripe by a worker:
 * `pending` is queued or being retried (`attempts`, `lastError`), `failed`
 * means Stripe kept refusing and an admin must act (再試行 puts it back).
 */
export const RefundSchema = Type.Object({
  id: Type.String(),
  reservationId: Type.String(),
  scheduleId: Type.String(),
  date: DateSchema,
  userId: Type.String(),
  userName: Type.String(),
  amount: MoneySchema,
  reason: StringEnum(['cancelled', 'calledOff', 'late'] as const),
  status: RefundStatusSchema,
  attempts: Type.Integer({ minimum: 0 }),
  lastError: Type.Optional(Type.String()),
  stripeRefundId: Type.Optional(Type.String()),
  nextAttemptAt: Type.Optional(InstantSchema),
  ...Timestamps,
});
export type Refund = Static<typeof RefundSchema>;

export const RefundListInputSchema = InputObject({
  status: Type.Optional(RefundStatusSchema),
  ...Paging(100, 50),
});
export type RefundListInput = Static<typeof RefundListInputSchema>;

export const RefundRetryInputSchema = InputObject({ id: IdSchema });

export const WebhookReceivedSchema = Type.Object({
  received: Type.Literal(true),
});
