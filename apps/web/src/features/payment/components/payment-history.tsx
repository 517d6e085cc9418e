import type { Payment, PaymentRecordStatus } from '@proam/contract';
import { Link } from 'react-router';
import { MemberSection } from '@/components/member-section';
import { InfiniteQueryList } from '@/components/infinite-query-list';
import { Badge } from '@/components/status-badge';
import { paymentsEnabled } from '@/config/env';
import {
  formatDate,
  formatInstantDateTime,
  formatYenSuffix,
} from '@/lib/format';
import {
  PAYMENT_STATUS_LABELS,
  paymentTotal,
  useGetPaymentsInfiniteQuery,
} from '../payment-records-api';

/** Badge colours: blue waiting, green paid, grey refunded, red failed. */
const TONES: Record<
  PaymentRecordStatus,
  'scheduled' | 'open' | 'finished' | 'cancelled'
> = {
  pending: 'scheduled',
  paid: 'open',
  refunded: 'finished',
  failed: 'cancelled',
};

const PaymentItem = ({ payment: p }: { payment: Payment }) => {
  const headingId = `payment-${p.reservationId}`;
  return (
    <li className="payment-item">
      <article aria-labelledby={headingId}>
        <header className="payment-item__head">
          <Badge tone={TONES[p.status]}>
            {PAYMENT_STATUS_LABELS[p.status]}
          </Badge>
          <h3 id={headingId} className="payment-item__title">
            {formatDate(p.date)} {p.startTime}〜 {p.place}
          </h3>
        </header>
        <dl className="payment-item__facts">
          <div>
            <dt>プロ</dt>
            <dd>
              <Link to={`/tabs/likes/pro/${encodeURIComponent(p.proId)}`}>
                {p.proName}
              </Link>
            </dd>
          </div>
          <div>
            <dt>合計</dt>
            <dd className="payment-item__amount">
              {formatYenSuffix(paymentTotal(p))}（税込）
              <span className="payment-item__breakdown">
                レッスン料 {formatYenSuffix(p.amount)}・システム利用料{' '}
                {formatYenSuffix(p.serviceFee)}
              </span>
            </dd>
          </div>
          {p.paidAt && (
            <div>
              <dt>お支払い日時</dt>
              <dd>{formatInstantDateTime(p.paidAt)}</dd>
            </div>
          )}
          {p.refundedAt && (
            <div>
              <dt>返金日時</dt>
              <dd>{formatInstantDateTime(p.refundedAt)}</dd>
            </div>
          )}
        </dl>
        {p.receiptNo && (
          <p className="payment-item__actions">
            <Link
              to={`/receipt/${encodeURIComponent(p.reservationId)}`}
              className="button button--small button--outline"
            >
              領収書
              <span className="visually-hidden">
                （{formatDate(p.date)}のレッスン）
              </span>
            </Link>
          </p>
        )}
      </article>
    </li>
  );
};

/**
 * 支払い履歴 (amateurs, profile tab): every payment made online, newest
 * first, with its 領収書. Without online payment (現地払い) the section only
 * appears when there is history from a time payments were on: an empty
 * section would speak of payments the member cannot make.
 */
export const PaymentHistory = () => {
  const query = useGetPaymentsInfiniteQuery(undefined, {
    // A payment made a moment ago on the payment page should be here.
    refetchOnMountOrArgChange: true,
  });
  const payments = query.data?.pages.flat() ?? [];
  const online = paymentsEnabled();
  if (!online && payments.length === 0) return null;
  return (
    <MemberSection
      id="payment-history-title"
      className="payment-history"
      title="支払い履歴"
    >
      <InfiniteQueryList
        query={query}
        loading="支払い履歴を読み込み中"
        error="支払い履歴を読み込めませんでした。"
        empty="お支払いの履歴はありません"
        listClassName="payment-history__items"
        moreClassName="payment-history__more"
      >
        {(p) => <PaymentItem key={p.reservationId} payment={p} />}
      </InfiniteQueryList>
    </MemberSection>
  );
};
