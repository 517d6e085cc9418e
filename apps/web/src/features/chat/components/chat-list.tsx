import { Link } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { StatusBadge } from '@/components/status-badge';
import { useGetLessonMembersQuery } from '@/features/schedule/schedule-api';
import { formatDate, todayInJapan } from '@/lib/format';
import { useGetChatLessonsQuery } from '../chat-api';
import { formatListStamp } from '../chat-time';
import { DELETED_SENDER } from './conversation';

/** The member's lessons with a chat: last message, its time, unread count. */
export const ChatList = ({ userId }: { userId: string }) => {
  const { data, isLoading, isError, refetch } = useGetChatLessonsQuery(userId, {
    refetchOnMountOrArgChange: true,
  });
  const proIds = [...new Set((data ?? []).map((l) => l.schedule.proId))].sort();
  const { data: pros } = useGetLessonMembersQuery(
    proIds.length ? proIds : skipToken,
  );
  const today = todayInJapan();

  if (isLoading)
    return (
      <div className="conversation__state">
        <Spinner label="チャットを読み込み中" />
      </div>
    );
  if (isError)
    return (
      <InlineError
        message="チャットを読み込めませんでした。"
        onRetry={() => void refetch()}
      />
    );
  if (!data?.length)
    return (
      <div className="lessons-empty">
        <p>チャットできるレッスンはまだありません。</p>
        <p>ラウンドレッスンの予約が入ると、参加者とプロでチャットできます。</p>
      </div>
    );

  return (
    <ul className="chat-list">
      {data.map(({ schedule: s, lastMessage, unreadCount: count }) => {
        const pro = pros?.find((u) => u.id === s.proId);
        const who =
          s.proId === userId
            ? `参加者${s.reservedCount}名`
            : `${pro?.userName ?? ''}プロ`;
        return (
          <li key={s.id}>
            <Link
              to={`/tabs/chat/${s.id}`}
              className={`chat-list__item${count > 0 ? ' has-unread' : ''}`}
            >
              <span className="chat-list__top">
                <span className="chat-list__title">
                  {formatDate(s.date)} {s.place}
                </span>
                {lastMessage && (
                  <time
                    className="chat-list__time"
                    dateTime={lastMessage.createTime}
                  >
                    {formatListStamp(lastMessage.createTime, today)}
                  </time>
                )}
              </span>
              <span className="chat-list__sub">
                {s.startTime}〜 ・ {who} <StatusBadge status={s.statusRound} />
              </span>
              <span className="chat-list__bottom">
                <span className="chat-list__last">
                  {lastMessage
                    ? `${lastMessage.sender === userId ? 'あなた: ' : lastMessage.sender === DELETED_SENDER ? `${DELETED_SENDER}: ` : ''}${lastMessage.msg}`
                    : 'まだメッセージはありません'}
                </span>
                {count > 0 && (
                  <span className="unread-badge">
                    <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
                    <span className="visually-hidden">未読{count}件</span>
                  </span>
                )}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
};
