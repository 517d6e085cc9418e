import { useState } from 'react';
import { SmallButton } from '@/components/small-button';
import { Inbox, InboxItem } from '@/components/inbox';
import { NextPage, QueryList } from '@/components/infinite-query-list';
import {
  useGetContactMessagesInfiniteQuery,
  useSetContactHandledMutation,
} from '../contact-admin-api';

type Filter = 'open' | 'handled' | 'all';

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'open', label: '未対応' },
  { value: 'handled', label: '対応済み' },
  { value: 'all', label: 'すべて' },
];

/**
 * The admins' inbox: contact-form messages, newest first a page at a time,
 * with a 対応済み toggle.
 */
export const ContactInbox = () => {
  const [filter, setFilter] = useState<Filter>('open');
  const query = useGetContactMessagesInfiniteQuery(
    filter === 'all' ? {} : { handled: filter === 'handled' },
    { refetchOnMountOrArgChange: true },
  );
  const messages = query.data?.pages.flat() ?? [];
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
      <QueryList
        query={query}
        loading="お問い合わせを読み込み中"
        error="お問い合わせを読み込めませんでした。"
        items={messages}
        className="inbox"
        after={<NextPage query={query} />}
        empty={
          filter === 'open'
            ? '未対応のお問い合わせはありません。'
            : filter === 'handled'
              ? '対応済みのお問い合わせはありません。'
              : 'お問い合わせはまだありません。'
        }
      >
        {(m) => {
          const headingId = `contact-${m.id}-name`;
          return (
            <InboxItem
              key={m.id}
              headingId={headingId}
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
                  // Whose message: each item has the same buttons.
                  aria-describedby={headingId}
                  disabled={pendingId === m.id}
                  onClick={() => void toggle(m.id, !m.handled, m.name)}
                >
                  {m.handled ? '未対応に戻す' : '対応済みにする'}
                </SmallButton>
              }
            >
              <p className="inbox__message">{m.message}</p>
            </InboxItem>
          );
        }}
      </QueryList>
    </Inbox>
  );
};
