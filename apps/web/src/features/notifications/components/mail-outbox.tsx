import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { formatInstantDateTime, groupDigits } from '@/lib/format';
import { useGetMailOutboxQuery } from '../notifications-api';
import { BusyButton } from '@/components/form/form-actions';

const COUNTS = [
  { key: 'queued', label: '送信待ち' },
  { key: 'sent', label: '送信済み' },
  { key: 'skipped', label: '送信不要（通知オフ）' },
  { key: 'dead', label: '送信失敗' },
] as const;

/**
 * メール送信状況 (admins): how many mails wait, went out, were skipped by a
 * member's 通知設定, or were given up, and the given-up ones in detail.
 */
export const MailOutbox = () => {
  const { data, isLoading, isError, isFetching, refetch } =
    useGetMailOutboxQuery(undefined, { refetchOnMountOrArgChange: true });

  if (isLoading) return <Spinner label="メール送信状況を読み込み中" />;
  if (isError || !data)
    return (
      <InlineError
        message="メール送信状況を読み込めませんでした。"
        onRetry={isFetching ? undefined : () => void refetch()}
      />
    );

  return (
    <section className="mail-outbox" aria-labelledby="mail-outbox-title">
      <div className="admin-bar">
        <h2 id="mail-outbox-title" className="mail-outbox__title">
          メール送信状況
        </h2>
        <BusyButton
          className="button button--outline button--small"
          busy={isFetching}
          busyLabel="更新中…"
          label="最新の状況に更新"
          onClick={() => void refetch()}
        />
      </div>
      <dl className="mail-outbox__counts">
        {COUNTS.map(({ key, label }) => (
          <div
            key={key}
            className={`mail-outbox__count${key === 'dead' && data.dead > 0 ? ' mail-outbox__count--alert' : ''}`}
          >
            <dt>{label}</dt>
            <dd>{groupDigits(data[key])}件</dd>
          </div>
        ))}
      </dl>
      {data.oldestQueuedAt && (
        <p className="muted">
          最も古い送信待ち：{formatInstantDateTime(data.oldestQueuedAt)}
        </p>
      )}
      <h3 className="mail-outbox__subtitle">送信に失敗したメール</h3>
      {data.deadMails.length === 0 ? (
        <p className="muted">送信に失敗したメールはありません。</p>
      ) : (
        <div className="table-scroll">
          <table className="mail-outbox__table">
            <caption className="visually-hidden">
              送信に失敗したメール（{data.deadMails.length}件）
            </caption>
            <thead>
              <tr>
                <th scope="col">宛先</th>
                <th scope="col">件名</th>
                <th scope="col">試行回数</th>
                <th scope="col">最後のエラー</th>
                <th scope="col">作成日時</th>
              </tr>
            </thead>
            <tbody>
              {data.deadMails.map((m) => (
                <tr key={m.id}>
                  <td data-label="宛先" className="mail-outbox__to">
                    {m.to}
                  </td>
                  <td data-label="件名">{m.subject}</td>
                  <td data-label="試行回数">{m.attempts}回</td>
                  <td data-label="最後のエラー" className="mail-outbox__error">
                    {m.lastError ?? '—'}
                  </td>
                  <td data-label="作成日時">
                    {formatInstantDateTime(m.createdAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
};
