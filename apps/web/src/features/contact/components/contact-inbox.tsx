import { useState } from 'react';
import { SmallButton } from '@/components/small-button';
import { Inbox, InboxItem, InboxList } from '@/components/inbox';
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
    <Inbox
      filter={{
        legend: '表示するお問い合わせ',
        name: 'contact-filter',
        options: FILTERS,
        value: filter,
        onChange: setFilter,
      }}
      status={status}
    >
      <InboxList
        query={{ isLoading, isError, isFetching, refetch }}
        subject="お問い合わせ"
        items={data}
        empty={
          filter === 'open'
            ? '未対応のお問い合わせはありません。'
            : filter === 'handled'
              ? '対応済みのお問い合わせはありません。'
              : 'お問い合わせはまだありません。'
        }
      >
        {(m) => (
          <InboxItem
            key={m.id}
            headingId={`contact-${m.id}-name`}
            handled={m.handled}
            createdAt={m.createdAt}
            tags={<span className="tag">{m.category}</span>}
            title={`${m.name} 様`}
            contact={[
              {
                label: 'メール',
                value: <a href={`mailto:${m.email}`}>{m.email}</a>,
              },
              {
                label: '電話',
                value: m.phone ? (
                  <a href={`tel:${m.phone.replace(/[^0-9+]/g, '')}`}>
                    {m.phone}
                  </a>
                ) : (
                  <span className="muted">（未入力）</span>
                ),
              },
            ]}
            actions={
              <SmallButton
                variant={m.handled ? 'outline' : 'primary'}
                disabled={pendingId === m.id}
                onClick={() => void toggle(m.id, !m.handled, m.name)}
              >
                {m.handled ? '未対応に戻す' : '対応済みにする'}
              </SmallButton>
            }
          >
            <p className="inbox__message">{m.message}</p>
          </InboxItem>
        )}
      </InboxList>
    </Inbox>
  );
};
