import {
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Message, Schedule, User } from '@proam/contract';
import { Avatar } from '@/components/avatar';
import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { StatusBadge } from '@/components/status-badge';
import {
  useGetLessonMembersQuery,
  useGetSchedulesByIdQuery,
} from '@/features/schedule/schedule-api';
import { formatDate, toJapanDate } from '@/lib/format';
import {
  useGetMessagesInfiniteQuery,
  useMarkReadMutation,
  useSendMessageMutation,
} from '../chat-api';
import { formatTime } from '../chat-time';
import { messagesOf } from '../message-pages';
import { Composer } from './composer';
import { LoadMore } from '@/components/form/form-actions';
import { NavRoundLink } from '@/components/nav-round-button';

export const DELETED_SENDER = '退会したユーザー';

type Props = {
  partitionKey: string;
  userId: string;
  /** Beside others' messages, e.g. 通報する (composed in by the route). */
  messageActions?: (message: Message, senderName: string) => ReactNode;
};

const usePageVisible = () => {
  const [visible, setVisible] = useState(
    () =>
      typeof document === 'undefined' || document.visibilityState === 'visible',
  );
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
};

const scrollToEnd = () =>
  window.scrollTo({ top: document.documentElement.scrollHeight });

/** One lesson's conversation, newest at the bottom; see README.md (Web app). */
export const Conversation = ({
  partitionKey,
  userId,
  messageActions,
}: Props) => {
  // The cache entry is the conversation: sending, the socket and a
  // reconnect's catch-up write into it (chat-api.ts).
  const {
    data,
    isError,
    refetch,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
  } = useGetMessagesInfiniteQuery(partitionKey, {
    // Opened again, it loads afresh; the socket catches up after a reconnect.
    refetchOnMountOrArgChange: true,
    refetchOnReconnect: false,
  });
  const status: 'loading' | 'error' | 'ready' = data
    ? 'ready'
    : isError
      ? 'error'
      : 'loading';
  const shown = useMemo(() => messagesOf(data), [data]);
  const [send] = useSendMessageMutation();
  const [markRead] = useMarkReadMutation();
  const visible = usePageVisible();
  const { data: lessons } = useGetSchedulesByIdQuery(
    { userId },
    // Reservations change under us: the header shows the current count.
    { refetchOnMountOrArgChange: true },
  );
  const schedule: Schedule | undefined = lessons?.find(
    (s) => s.id === partitionKey,
  );

  const memberIds = useMemo(() => {
    const ids = new Set<string>();
    if (schedule) {
      ids.add(schedule.proId);
      for (const p of schedule.participants ?? []) ids.add(p);
    }
    for (const m of shown) if (m.sender !== DELETED_SENDER) ids.add(m.sender);
    return [...ids].sort();
  }, [schedule, shown]);
  const { data: members } = useGetLessonMembersQuery(
    memberIds.length ? memberIds : skipToken,
  );
  const memberOf = useCallback(
    (id: string): User | undefined => members?.find((u) => u.id === id),
    [members],
  );

  // Others' messages on screen are marked read while the page is visible.
  const inFlight = useRef(new Set<string>());
  useEffect(() => {
    if (!visible || status !== 'ready') return;
    const unread = shown
      .filter(
        (m) =>
          m.sender !== userId &&
          !m.readBy.includes(userId) &&
          !inFlight.current.has(m.sort_key),
      )
      .map((m) => m.sort_key);
    if (unread.length === 0) return;
    for (const k of unread) inFlight.current.add(k);
    // Once the server agrees, the mutation records the reads in the cache.
    void markRead({ partitionKey, userId, msgIdList: unread }).then(() => {
      for (const k of unread) inFlight.current.delete(k);
    });
  }, [markRead, partitionKey, shown, status, userId, visible]);

  // New messages at the bottom bring the view down; older ones keep it still.
  const lastKey = shown.at(-1)?.sort_key;
  const firstKey = shown[0]?.sort_key;
  /** Set while an older page loads: where the view was, from the bottom. */
  const olderFrom = useRef<{ firstKey: string; fromBottom: number } | null>(
    null,
  );
  useLayoutEffect(() => {
    const pending = olderFrom.current;
    if (pending && pending.firstKey !== firstKey) {
      window.scrollTo({
        top: document.documentElement.scrollHeight - pending.fromBottom,
      });
      olderFrom.current = null;
    }
  }, [firstKey]);
  useLayoutEffect(() => {
    if (lastKey) scrollToEnd();
  }, [lastKey]);

  const loadOlder = async () => {
    if (!firstKey || isFetchingNextPage) return;
    olderFrom.current = {
      firstKey,
      fromBottom: document.documentElement.scrollHeight - window.scrollY,
    };
    const result = await fetchNextPage();
    if (result.isError) olderFrom.current = null;
  };

  // The mutation adds the answer to the conversation (chat-api.ts).
  const onSend = async (text: string): Promise<boolean> => {
    const result = await send({ partitionKey, msg: text, sender: userId });
    return Boolean(result.data);
  };

  const pro = schedule ? memberOf(schedule.proId) : undefined;
  const title = schedule
    ? `${formatDate(schedule.date)} ${schedule.place}`
    : 'レッスンチャット';

  return (
    <div className="conversation">
      <header className="conversation__head">
        <NavRoundLink to="/tabs/chat" label="チャット一覧へ戻る" />
        <div className="conversation__title-wrap">
          <h1 className="conversation__title">{title}</h1>
          {schedule && (
            <p className="conversation__meta">
              {schedule.startTime}〜{schedule.endTime}
              {pro && ` ・ ${pro.userName}プロ`}
              {` ・ 参加者${schedule.reservedCount}名 `}
              <StatusBadge status={schedule.statusRound} />
            </p>
          )}
        </div>
      </header>

      {status === 'loading' && (
        <div className="conversation__state">
          <Spinner label="メッセージを読み込み中" />
        </div>
      )}
      {status === 'error' && (
        <InlineError
          message="メッセージを読み込めませんでした。"
          onRetry={() => void refetch()}
        />
      )}
      {status === 'ready' && (
        <>
          {hasNextPage && (
            <LoadMore
              className="conversation__more"
              loading={isFetchingNextPage}
              onLoad={loadOlder}
            />
          )}
          {shown.length === 0 ? (
            <p className="lessons-empty conversation__empty">
              まだメッセージはありません。最初のメッセージを送ってみましょう。
            </p>
          ) : (
            // The live region wraps the list: a role on the <ol> itself would
            // take away its list semantics and leave the <li>s orphaned.
            <div
              className="message-log"
              role="log"
              aria-label="メッセージ"
              aria-live="polite"
            >
              <ol className="message-list">
                {shown.map((m, i) => (
                  <Fragment key={m.sort_key}>
                    {dayOf(m) !== (i > 0 ? dayOf(shown[i - 1]!) : '') && (
                      <li className="message-list__day" aria-hidden="false">
                        <span>{formatDate(dayOf(m))}</span>
                      </li>
                    )}
                    <MessageItem
                      message={m}
                      mine={m.sender === userId}
                      userId={userId}
                      sender={memberOf(m.sender)}
                      actions={messageActions}
                    />
                  </Fragment>
                ))}
              </ol>
            </div>
          )}
        </>
      )}
      <div className="conversation__composer">
        <Composer onSend={onSend} />
      </div>
    </div>
  );
};

const dayOf = (m: Message) => toJapanDate(m.createTime);

type MessageItemProps = {
  message: Message;
  mine: boolean;
  userId: string;
  sender?: User;
  actions?: Props['messageActions'];
};

const MessageItem = ({
  message: m,
  mine,
  userId,
  sender,
  actions,
}: MessageItemProps) => {
  const name =
    m.sender === DELETED_SENDER
      ? DELETED_SENDER
      : (sender?.userName ?? '参加者');
  const readCount = m.readBy.filter((id) => id !== userId).length;
  const time = formatTime(m.createTime);
  return (
    <li className={`message${mine ? ' message--mine' : ''}`}>
      {!mine && (
        <Avatar
          name={name}
          url={sender?.imageInfo[0]?.url}
          size="small"
          className="message__avatar"
        />
      )}
      <div className="message__body">
        {!mine && <p className="message__sender">{name}</p>}
        <div className="message__line">
          <p className="message__bubble">
            {mine && <span className="visually-hidden">自分: </span>}
            {m.msg}
          </p>
          <p className="message__meta">
            {mine && readCount > 0 && (
              <span className="message__read">既読 {readCount}</span>
            )}
            <time dateTime={m.createTime}>{time}</time>
          </p>
        </div>
        {!mine && m.sender !== DELETED_SENDER && actions && (
          <div className="message__actions">{actions(m, name)}</div>
        )}
      </div>
    </li>
  );
};
