import type {
  Payment,
  PaymentRecordStatus,
  Refund,
  RefundStatus,
  Statement,
  Statements,
} from '@proam/contract';
import { api, numberedPages, postArg, type ApiRequest } from '@/lib/api';

export const PAYMENT_PAGE_SIZE = 20;
/** The API's largest page of /payment/list (PaymentListInputSchema), for finding one payment. */
const FIND_PAGE_SIZE = 50;
export const REFUND_PAGE_SIZE = 50;

/** 支払い履歴's badge text for each payment status. */
export const PAYMENT_STATUS_LABELS: Record<PaymentRecordStatus, string> = {
  pending: 'お支払い待ち',
  paid: '支払い済み',
  refunded: '返金済み',
  failed: '失敗',
};

/** The admin 返金 list's words for a refund's state. */
export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  pending: '処理中',
  succeeded: '完了',
  failed: '要対応',
};

export const REFUND_REASON_LABELS: Record<Refund['reason'], string> = {
  cancelled: 'キャンセル',
  calledOff: 'レッスン中止',
  late: '満員後のお支払い',
};

/** What the member paid in all: the lesson fee and the system fee (tax included). */
export const paymentTotal = (p: Pick<Payment, 'amount' | 'serviceFee'>) =>
  p.amount + p.serviceFee;

/**
 * The money records (docs/api.md, Payments): the member's payments, the pros'
 * monthly statements and, for admins, every pro's month and the refunds.
 */
export const paymentRecordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** 支払い履歴: the caller's payments, newest first, a page at a time. */
    getPayments: build.infiniteQuery<Payment[], void, number>({
      infiniteQueryOptions: numberedPages(PAYMENT_PAGE_SIZE),
      // Silent: the section shows its own error with 再読み込み, and in
      // 現地払い mode a member who never paid online should see no dialog.
      query: ({ pageParam }) => ({
        path: '/payment/list',
        body: { page: pageParam, size: PAYMENT_PAGE_SIZE },
        silent: true,
      }),
      providesTags: ['Payment'],
    }),
    /**
     * One of the caller's payments (the 領収書), or null. The API has no
     * single-payment call, so this reads /payment/list (newest first) until
     * it finds it: a receipt is nearly always of a recent payment.
     */
    getPayment: build.query<Payment | null, string>({
      queryFn: async (reservationId, _api, _extra, baseQuery) => {
        for (let page = 1; ; page++) {
          const result = await baseQuery({
            path: '/payment/list',
            body: { page, size: FIND_PAGE_SIZE },
          } satisfies ApiRequest);
          if (result.error) return { error: result.error };
          const payments = result.data as Payment[];
          const found = payments.find((p) => p.reservationId === reservationId);
          if (found) return { data: found };
          if (payments.length < FIND_PAGE_SIZE) return { data: null };
        }
      },
      providesTags: ['Payment'],
    }),
    /** 売上明細: one pro's lessons and payout for a month (the pro, or an admin). */
    getStatement: build.query<Statement, { proId: string; month: string }>({
      query: postArg('/payment/statement'),
      providesTags: ['Statement'],
    }),
    /** 売上・精算 (admins): every pro paid for in the month, by payout. */
    getStatements: build.query<Statements, { month: string }>({
      query: postArg('/payment/statements'),
      providesTags: ['Statement'],
    }),
    /** 返金 (admins): refunds, newest first, optionally of one status. */
    getRefunds: build.infiniteQuery<
      Refund[],
      { status?: RefundStatus },
      number
    >({
      infiniteQueryOptions: numberedPages(REFUND_PAGE_SIZE),
      query: ({ queryArg, pageParam }) => ({
        path: '/payment/refunds',
        body: { ...queryArg, page: pageParam, size: REFUND_PAGE_SIZE },
      }),
      providesTags: ['Refund'],
    }),
  }),
});

export const {
  useGetPaymentsInfiniteQuery,
  useGetPaymentQuery,
  useGetStatementQuery,
  useGetStatementsQuery,
  useGetRefundsInfiniteQuery,
} = paymentRecordsApi;
