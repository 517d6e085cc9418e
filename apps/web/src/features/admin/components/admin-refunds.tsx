import type { Refund, RefundStatus } from '@proam/contract';
import { useState } from 'react';
import { BusyButton } from '@/components/form/form-actions';
import { Inbox } from '@/components/inbox';
import { InfiniteQueryList } from '@/components/infinite-query-list';
import { Badge } from '@/components/status-badge';
import {
  REFUND_REASON_LABELS,
  REFUND_STATUS_LABELS,
  useGetRefundsInfiniteQuery,
} from '@/features/payment/payment-records-api';
import { isApiError } from '@/lib/api-error';
import {
  formatDate,
  formatInstantDateTime,
  formatYenSuffix,
} from '@/lib/format';
import { useAdminRetryRefundMutation } from '../admin-api';

type Filter = 'all' | RefundStatus;

const FILTERS: readonly { value: Filter; label: string }[] = [
  { value: 'all', label: 'すべて' },
  { value: 'failed', label: REFUND_STATUS_LABELS.failed },
  { value: 'pending', label: REFUND_STATUS_LABELS.pending },
  { value: 'succeeded', label: REFUND_STATUS_LABELS.succeeded },
];

const TONES: Record<RefundStatus, 'scheduled' | 'finished' | 'cancelled'> = {
  pending: 'scheduled',
  succeeded: 'finished',
  failed: 'cancelled',
};

type RefundItemProps = {
  refund: Refund;
  retrying: boolean;
  onRetry: (r: Refund) => void;
};

const RefundItem = ({ refund: r, retrying, onRetry }: RefundItemProps) => {
  const headingId = `refund-${r.id}`;
  return (
    <li className={`refund-item refund-item--${r.status}`}>
      <article aria-labelledby={headingId}>
        <header className="refund-item__head">
          <Badge tone={TONES[r.status]}>{REFUND_STATUS_LABELS[r.status]}</Badge>
          <h3 id={headingId} className="refund-item__title">
            {r.userName}様 {formatYenSuffix(r.amount)}
          </h3>
        </header>
        <dl className="refund-item__facts">
          <div>
            <dt>理由</dt>
            <dd>{REFUND_REASON_LABELS[r.reason]}</dd>
          </div>
          <div>
            <dt>レッスン日</dt>
            <dd>{formatDate(r.date)}</dd>
          </div>
          <div>
            <dt>受付</dt>
            <dd>{formatInstantDateTime(r.createdAt)}</dd>
          </div>
          <div>
            <dt>試行回数</dt>
            <dd>{r.attempts}回</dd>
          </div>
          {r.status === 'pending' && r.nextAttemptAt && (
            <div>
              <dt>次の試行</dt>
              <dd>{formatInstantDateTime(r.nextAttemptAt)}</dd>
            </div>
          )}
          {r.status === 'succeeded' && (
            <div>
              <dt>完了</dt>
              <dd>{formatInstantDateTime(r.updatedAt)}</dd>
            </div>
          )}
          {r.lastError && r.status !== 'succeeded' && (
            <div className="refund-item__error">
              <dt>最後のエラー</dt>
              <dd>{r.lastError}</dd>
            </div>
          )}
        </dl>
        {r.status !== 'succeeded' && (
          <div className="refund-item__actions">
            <BusyButton
              className={`button button--small ${r.status === 'failed' ? 'button--primary' : 'button--outline'}`}
              busy={retrying}
              busyLabel="再試行中…"
              label="再試行"
              aria-describedby={headingId}
              onClick={() => onRetry(r)}
            />
          </div>
        )}
      </article>
    </li>
  );
};

/**
 * 返金 (admins): refunds owed to members, newest first. A refund Stripe
 * kept refusing is 要対応; 再試行 hands it back to the worker at once (a
 * pending one too, to skip its wait).
 */
export const AdminRefunds = () => {
  const [filter, setFilter] = useState<Filter>('all');
  const query = useGetRefundsInfiniteQuery(
    filter === 'all' ? {} : { status: filter },
    { refetchOnMountOrArgChange: true },
  );
  const [retry] = useAdminRetryRefundMutation();
  const [retrying, setRetrying] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const onRetry = async (r: Refund) => {
    setRetrying(r.id);
    setStatus('');
    // Silent: the line under the filter says what happened. Success or
    // not, the call invalidates `Refund`, so the list is read again.
    const result = await retry({ id: r.id });
    setRetrying(null);
    if (!result.error) {
      setStatus(
        `${r.userName}様への返金（${formatYenSuffix(r.amount)}）を再試行しました。`,
      );
      return;
    }
    const error = isApiError(result.error) ? result.error : null;
    setStatus(
      error?.code === 'Conflict'
        ? // Refunded meanwhile (by the worker, or another admin's 再試行).
          'この返金はすでに完了しています。'
        : `${r.userName}様への返金を再試行できませんでした。${error?.msg ?? ''}`,
    );
  };

  return (
    <Inbox
      filter={{
        legend: '返金の状態',
        name: 'refund-filter',
        options: FILTERS,
        value: filter,
        onChange: setFilter,
      }}
      status={status}
    >
      <InfiniteQueryList
        query={query}
        loading="返金を読み込み中"
        error="返金を読み込めませんでした。"
        empty={
          filter === 'failed'
            ? '対応が必要な返金はありません。'
            : '返金はありません。'
        }
        listClassName="refund-list"
        moreClassName="refund-list__more"
      >
        {(r) => (
          <RefundItem
            key={r.id}
            refund={r}
            retrying={retrying === r.id}
            onRetry={(x) => void onRetry(x)}
          />
        )}
      </InfiniteQueryList>
    </Inbox>
  );
};
