import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import type { Schedule } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { formatDate } from '@/lib/format';
import {
  useCancelReservationMutation,
  useGetActiveSchedulesQuery,
  useReserveScheduleMutation,
} from '../schedule-api';
import { LessonCard } from './lesson-card';

type ProLessonsProps = {
  proId: string;
  userId: string;
  /** Only amateurs reserve; others see the list. */
  canReserve: boolean;
};

/** A pro's lessons from today on, with 予約する / 予約済み・キャンセル. */
export const ProLessons = ({ proId, userId, canReserve }: ProLessonsProps) => {
  const { data, isLoading, isError, refetch } = useGetActiveSchedulesQuery(
    { userId: proId },
    { refetchOnMountOrArgChange: true },
  );
  const lessons = (data ?? []).filter((s) => s.proId === proId);
  const [reserve, reserveState] = useReserveScheduleMutation();
  const [cancel, cancelState] = useCancelReservationMutation();
  const [pending, setPending] = useState<Schedule | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Reserving or cancelling swaps the pressed button for other controls; the
  // focus follows to the lesson's new first control instead of falling back
  // to the top of the page (a keyboard user keeps their place).
  const [focusLesson, setFocusLesson] = useState<string | null>(null);
  const takeFocus = useCallback((el: HTMLElement | null) => el?.focus(), []);
  const busy = reserveState.isLoading || cancelState.isLoading;

  const onReserve = async (s: Schedule) => {
    setNotice(null);
    const result = await reserve({ id: s.id });
    // ScheduleFull and the like show the エラー alert; the list is refetched.
    if (result.data) {
      setFocusLesson(s.id);
      setNotice(
        `${formatDate(s.date)} ${s.startTime}〜のレッスンを予約しました。`,
      );
    }
  };

  const confirmCancel = async () => {
    if (!pending) return;
    const result = await cancel({ id: pending.id });
    if (result.data) {
      setFocusLesson(pending.id);
      setNotice('予約をキャンセルしました。');
    }
    setPending(null);
  };

  if (isLoading) return <Spinner label="レッスンを読み込み中" />;
  if (isError)
    return (
      <InlineError
        message="レッスンを読み込めませんでした。"
        onRetry={() => void refetch()}
      />
    );

  return (
    <section className="pro-lessons" aria-labelledby="pro-lessons-title">
      <h2 id="pro-lessons-title" className="lessons-title">
        募集中のラウンドレッスン
      </h2>
      {notice && (
        <p className="day-panel__notice" role="status">
          {notice}
        </p>
      )}
      {lessons.length === 0 && (
        <p className="lessons-empty">
          現在予定されているレッスンはありません。
        </p>
      )}
      <ul className="lesson-list">
        {lessons.map((s) => {
          const reserved = s.participants?.includes(userId) ?? false;
          const focusRef = s.id === focusLesson ? takeFocus : undefined;
          return (
            <li key={s.id}>
              <LessonCard
                schedule={s}
                showDate
                actions={
                  !canReserve ? null : reserved ? (
                    <>
                      <span className="reserved-mark">予約済み</span>
                      <Link
                        ref={focusRef}
                        to={`/tabs/chat/${s.id}`}
                        className="button button--outline"
                        aria-label={`${formatDate(s.date)}のレッスンのチャット`}
                      >
                        チャット
                      </Link>
                      <button
                        type="button"
                        className="button button--outline"
                        disabled={busy}
                        onClick={() => setPending(s)}
                        aria-label={`${formatDate(s.date)}の予約をキャンセル`}
                      >
                        キャンセル
                      </button>
                    </>
                  ) : (
                    <button
                      ref={focusRef}
                      type="button"
                      className="button button--primary"
                      disabled={busy || s.statusRound !== 'open'}
                      onClick={() => void onReserve(s)}
                      aria-label={`${formatDate(s.date)} ${s.startTime}〜のレッスンを予約する`}
                    >
                      {s.statusRound === 'open' ? '予約する' : '受付終了'}
                    </button>
                  )
                }
              />
            </li>
          );
        })}
      </ul>
      {!canReserve && (
        <p className="form-note">
          予約はアマチュア会員のみご利用いただけます。
        </p>
      )}
      <ConfirmDialog
        open={pending !== null}
        title="予約のキャンセル"
        message={
          pending
            ? `${formatDate(pending.date)} ${pending.startTime}〜の予約をキャンセルします。よろしいですか？`
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
