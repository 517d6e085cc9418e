import { useState } from 'react';
import { Link } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Schedule } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { formatDate } from '@/lib/format';
import {
  useCancelReservationMutation,
  useGetActiveSchedulesQuery,
  useGetLessonMembersQuery,
} from '../schedule-api';
import { LessonCard } from './lesson-card';

/** Unique ids in a stable order, so the members query is cached per set. */
export const uniqueIds = (ids: readonly string[]): string[] =>
  [...new Set(ids)].sort();

/** The amateur's reserved lessons from today on, with the pro and the chat. */
export const AmateurReservations = ({ userId }: { userId: string }) => {
  const { data, isLoading, isError, refetch } = useGetActiveSchedulesQuery(
    { userId },
    { refetchOnMountOrArgChange: true },
  );
  const lessons = (data ?? []).filter(
    (s) => s.participants?.includes(userId) ?? true,
  );
  const proIds = uniqueIds(lessons.map((s) => s.proId));
  const { data: pros } = useGetLessonMembersQuery(
    proIds.length ? proIds : skipToken,
  );
  const proName = (id: string) =>
    pros?.find((u) => u.id === id)?.userName ?? 'プロ';
  const [cancel, cancelState] = useCancelReservationMutation();
  const [pending, setPending] = useState<Schedule | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const confirmCancel = async () => {
    if (!pending) return;
    const result = await cancel({ id: pending.id });
    if (result.data) setNotice('予約をキャンセルしました。');
    setPending(null);
  };

  return (
    <section className="reservations" aria-labelledby="reservations-title">
      <h2 id="reservations-title" className="lessons-title">
        予約中のレッスン
      </h2>
      {notice && (
        <p className="day-panel__notice" role="status">
          {notice}
        </p>
      )}
      {isLoading && <Spinner label="予約を読み込み中" />}
      {isError && (
        <InlineError
          message="予約中のレッスンを読み込めませんでした。"
          onRetry={() => void refetch()}
        />
      )}
      {!isLoading && !isError && lessons.length === 0 && (
        <div className="lessons-empty">
          <p>予約中のレッスンはありません。</p>
          <p>
            「いいね」タブからプロを探して、プロフィールのスケジュールから予約できます。
          </p>
          <Link to="/tabs/likes" className="button button--primary">
            プロを探す
          </Link>
        </div>
      )}
      <ul className="lesson-list">
        {lessons.map((s) => (
          <li key={s.id}>
            <LessonCard
              schedule={s}
              showDate
              extra={
                <p className="lesson-card__pro">
                  プロ：
                  <Link to={`/tabs/schedule/pro/${s.proId}`}>
                    {proName(s.proId)}
                  </Link>
                </p>
              }
              actions={
                <>
                  <Link
                    to={`/tabs/chat/${s.id}`}
                    className="button button--primary"
                    aria-label={`${formatDate(s.date)}のレッスンのチャット`}
                  >
                    チャット
                  </Link>
                  {s.statusRound !== 'cancelled' && (
                    <button
                      type="button"
                      className="button button--outline"
                      onClick={() => setPending(s)}
                      aria-label={`${formatDate(s.date)}の予約をキャンセル`}
                    >
                      キャンセル
                    </button>
                  )}
                </>
              }
            />
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={pending !== null}
        title="予約のキャンセル"
        message={
          pending
            ? `${formatDate(pending.date)} ${pending.startTime}〜 ${pending.place}の予約をキャンセルします。よろしいですか？`
            : ''
        }
        confirmLabel="予約をキャンセル"
        busy={cancelState.isLoading}
        onConfirm={() => void confirmCancel()}
        onCancel={() => setPending(null)}
      />
    </section>
  );
};
