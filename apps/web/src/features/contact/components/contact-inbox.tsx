import { useState } from 'react';
import { Segmented } from '@/components/form/segmented';
import { QueryState } from '@/components/query-state';
import { formatInstantDateTime } from '@/lib/format';
import {
  useGetContactMessagesQuery,
  useSetContactHandledMutation,
} from '../contact-admin-api';

type Filter = 'open' | 'handled' | 'all';

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'open', label: '未対応' },
  { value: 'handled', label: '対応済み' },
  { value: 'all', label: 'すべて' },
];

/** The admins' inbox: contact-form messages, newest first, with a 対応済み toggle. */
export const ContactInbox = () => {
  const [filter, setFilter] = useState<Filter>('open');
  const { data, isLoading, isError, isFetching, refetch } =
    useGetContactMessagesQuery(
      filter === 'all'
        ? { size: 100 }
        : { handled: filter === 'handled', size: 100 },
      { refetchOnMountOrArgChange: true },
    );
  const [setHandled] = useSetContactHandledMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const toggle = async (id: string, handled: boolean, name: string) => {
    setPendingId(id);
    const result = await setHandled({ id, handled });
    setPendingId(null);
    if ('data' in result)
      setStatus(
        `${name} 様のお問い合わせを${handled ? '対応済み' : '未対応'}にしました。`,
      );
  };

  return (
    <div className="stack">
      <Segmented
        legend="表示するお問い合わせ"
        name="contact-filter"
        options={FILTERS}
        value={filter}
        onChange={setFilter}
      />
      <p role="status" className={status ? 'flash' : 'visually-hidden'}>
        {status}
      </p>
      <QueryState
        query={{ isLoading, isError, isFetching, refetch }}
        loading="お問い合わせを読み込み中"
        error="お問い合わせを読み込めませんでした。"
        isEmpty={!data || data.length === 0}
        empty={
          filter === 'open'
            ? '未対応のお問い合わせはありません。'
            : filter === 'handled'
              ? '対応済みのお問い合わせはありません。'
              : 'お問い合わせはまだありません。'
        }
      >
        {() => (
          <ul className="inbox">
            {data?.map((m) => (
              <li
                key={m.id}
                className={`inbox__item${m.handled ? ' is-handled' : ''}`}
              >
                <article aria-labelledby={`contact-${m.id}-name`}>
                  <header className="inbox__head">
                    <p className="inbox__meta">
                      <span
                        className={`status-badge ${m.handled ? 'status-badge--finished' : 'status-badge--closed'}`}
                      >
                        {m.handled ? '対応済み' : '未対応'}
                      </span>
                      <span className="tag">{m.category}</span>
                      <time dateTime={m.createdAt}>
                        {formatInstantDateTime(m.createdAt)}
                      </time>
                    </p>
                    <h3 id={`contact-${m.id}-name`} className="inbox__name">
                      {m.name} 様
                    </h3>
                    <dl className="inbox__contact">
                      <div>
                        <dt>メール</dt>
                        <dd>
                          <a href={`mailto:${m.email}`}>{m.email}</a>
                        </dd>
                      </div>
                      <div>
                        <dt>電話</dt>
                        <dd>
                          {m.phone ? (
                            <a href={`tel:${m.phone.replace(/[^0-9+]/g, '')}`}>
                              {m.phone}
                            </a>
                          ) : (
                            <span className="muted">（未入力）</span>
                          )}
                        </dd>
                      </div>
                    </dl>
                  </header>
                  <p className="inbox__message">{m.message}</p>
                  <div className="inbox__actions">
                    <button
                      type="button"
                      className={`button button--small ${m.handled ? 'button--outline' : 'button--primary'}`}
                      disabled={pendingId === m.id}
                      onClick={() => void toggle(m.id, !m.handled, m.name)}
                    >
                      {m.handled ? '未対応に戻す' : '対応済みにする'}
                    </button>
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
};
