import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  PaymentListInputSchema,
  PaymentSchema,
  RefundListInputSchema,
  RefundRetryInputSchema,
  RefundSchema,
  StatementInputSchema,
  StatementSchema,
  StatementsInputSchema,
  StatementsSchema,
} from '@proam/contract';
import { audited } from '../lib/audited.js';
import { defineRoute } from '../lib/route.js';

/**
 * The record of money (API.md, Payments): a member's payments, the pros'
 * monthly statements, and the refunds admins watch. These work whether
 * online payment is ON or OFF (empty when nothing was paid).
 */
export function paymentRecordRoutes(app: FastifyInstance): void {
  const { paymentRecords: records, refunds } = app.repos;

  defineRoute(app, {
    path: '/payment/list',
    auth: 'bearer',
    summary: "The caller's payments, newest first (支払い履歴)",
    tags: ['payment'],
    input: PaymentListInputSchema,
    output: Type.Array(PaymentSchema),
    handler: ({ input, caller }) =>
      records.list(caller.id, input.page ?? 1, input.size ?? 20),
  });

  defineRoute(app, {
    path: '/payment/statement',
    auth: 'bearer',
    owner: { field: 'proId', admins: true },
    summary:
      "A pro's statement for a month (売上明細): the pro themself or an admin",
    tags: ['payment'],
    input: StatementInputSchema,
    output: StatementSchema,
    handler: ({ input }) =>
      records.statement(input.proId, input.month, app.clock.now()),
  });

  defineRoute(app, {
    path: '/payment/statements',
    auth: 'admin',
    summary: "Every pro's month, largest payout first (admins: 売上・精算)",
    tags: ['payment'],
    input: StatementsInputSchema,
    output: StatementsSchema,
    handler: ({ input }) => records.statements(input.month, app.clock.now()),
  });

  defineRoute(app, {
    path: '/payment/refunds',
    auth: 'admin',
    summary: 'Refunds owed to members, newest first (admins)',
    tags: ['payment'],
    input: RefundListInputSchema,
    output: Type.Array(RefundSchema),
    handler: ({ input }) => refunds.list(input),
  });

  defineRoute(app, {
    path: '/payment/refundRetry',
    auth: 'admin',
    summary:
      'Send a failed (or waiting) refund to Stripe again now (admins: 再試行)',
    tags: ['payment'],
    input: RefundRetryInputSchema,
    output: RefundSchema,
    handler: async ({ input, caller }) => {
      const refund = await audited(
        app,
        caller,
        (tx, now) => tx.refunds.retry(input.id, now),
        (r) => ({
          action: 'payment.refundRetry',
          targetId: r.id,
          detail: { paymentId: r.reservationId, userId: r.userId },
        }),
      );
      // Sent now rather than at the next job round. OFF: nothing sends it
      // until payments are configured again.
      app.payments?.refundWorker.kick();
      return refund;
    },
  });
}
