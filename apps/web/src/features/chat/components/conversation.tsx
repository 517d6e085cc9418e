import {
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Message, Schedule, User } from '@proam/contract';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { StatusBadge } from '@/features/schedule/components/lesson-card';
import {
  useGetLessonMembersQuery,
  useGetSchedulesByIdQuery,
} from '@/features/schedule/schedule-api';
import { formatDate, toJapanDate } from '@/lib/format';
import {
  chatApi,
  useMarkReadMutation,
  useSendMessageMutation,
} from '../chat-api';
import {
  chatCleared,
  messagesLoaded,
  messagesMarkedRead,
  messageSent,
  selectChatHasMore,
  selectChatMessages,
  selectChatPartitionKey,
} from '../chat-slice';
import { formatTime } from '../chat-time';
import { Composer } from './composer';

export const PAGE_SIZE = 50;
export const DELETED_SENDER = '退会したユーザー';

type Props = { partitionKey: string; userId: string };

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

/** One lesson's conversation, newest at the bottom; see spec/PRODUCT.md (Chat). */
export const Conversation = ({ partitionKey, userId }: Props) => {
  const dispatch = useAppDispatch();
  const messages = useAppSelector(selectChatMessages);
  const loadedKey = useAppSelector(selectChatPartitionKey);
  const hasMore = useAppSelector(selectChatHasMore);
  const [status, setStatus] = useState<'loading' | 'error' | 'ready'>(
    'loading',
  );
  const [olderBusy, setOlderBusy] = useState(false);
  const [reloadCount, setReloadCount] = useState(0);
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

  // Load the newest page; the list is replaced (and emptied on the way out).
  useEffect(() => {
    let active = true;
    dispatch(chatCleared());
    const request = dispatch(
      chatApi.endpoints.getMessages.initiate(
        { partitionKey, size: PAGE_SIZE },
        { subscribe: false, forceRefetch: true },
      ),
    );
    void request.then(({ data }) => {
      if (!active) return;
      if (!data) {
        setStatus('error');
        return;
      }
      dispatch(
        messagesLoaded({
          partitionKey,
          messages: data,
          mode: 'replace',
          full: data.length >= PAGE_SIZE,
        }),
      );
      setStatus('ready');
    });
    return () => {
      active = false;
      dispatch(chatCleared());
    };
  }, [dispatch, partitionKey, reloadCount]);

  const shown = useMemo(
    () => (loadedKey === partitionKey ? messages : []),
    [loadedKey, messages, partitionKey],
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
    void markRead({ userId, msgIdList: unread }).then((result) => {
      for (const k of unread) inFlight.current.delete(k);
      if (!result.error)
        dispatch(messagesMarkedRead({ userId, sortKeys: unread }));
    });
  }, [dispatch, markRead, shown, status, userId, visible]);

  // New messages at the bottom bring the view down; older ones keep it still.
  const lastKey = shown.at(-1)?.sort_key;
  const firstKey = shown[0]?.sort_key;
  const keepFromBottom = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (keepFromBottom.current !== null) {
      window.scrollTo({
        top: document.documentElement.scrollHeight - keepFromBottom.current,
      });
      keepFromBottom.current = null;
    }
  }, [firstKey]);
  useLayoutEffect(() => {
    if (lastKey) scrollToEnd();
  }, [lastKey]);

  const loadOlder = async () => {
    if (!firstKey || olderBusy) return;
    setOlderBusy(true);
    const { data } = await dispatch(
      chatApi.endpoints.getMessages.initiate(
        { partitionKey, before: firstKey, size: PAGE_SIZE },
        { subscribe: false, forceRefetch: true },
      ),
    );
    setOlderBusy(false);
    if (!data) return;
    keepFromBottom.current =
      document.documentElement.scrollHeight - window.scrollY;
    dispatch(
      messagesLoaded({
        partitionKey,
        messages: data,
        mode: 'older',
        full: data.length >= PAGE_SIZE,
      }),
    );
  };

  const onSend = async (text: string): Promise<boolean> => {
    const result = await send({ partitionKey, msg: text, sender: userId });
    if (!result.data) return false;
    dispatch(messageSent(result.data));
    return true;
  };

  const pro = schedule ? memberOf(schedule.proId) : undefined;
  const title = schedule
    ? `${formatDate(schedule.date)} ${schedule.place}`
    : 'レッスンチャット';

  return (
    <div className="conversation">
      <header className="conversation__head">
        <Link
          to="/tabs/chat"
          className="nav-round-button"
          aria-label="チャット一覧へ戻る"
        >
          <span aria-hidden="true">‹</span>
        </Link>
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
          onRetry={() => {
            setStatus('loading');
            setReloadCount((n) => n + 1);
          }}
        />
      )}
      {status === 'ready' && (
        <>
          {hasMore && (
            <div className="conversation__more">
              <button
                type="button"
                className="button button--outline"
                disabled={olderBusy}
                onClick={() => void loadOlder()}
              >
                {olderBusy ? '読み込み中…' : 'もっと見る'}
              </button>
            </div>
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
};

const MessageItem = ({
  message: m,
  mine,
  userId,
  sender,
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
      </div>
    </li>
  );
};
