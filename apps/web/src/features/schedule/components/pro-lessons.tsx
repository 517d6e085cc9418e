import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { mayCancelOn, type Schedule } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { queryFallback } from '@/components/query-state';
import { paymentsEnabled } from '@/config/env';
import { useNow } from '@/hooks/use-now';
import { formatDate } from '@/lib/format';
import { paymentPath } from '@/features/payment/payment-api';
import {
  formatCancelDeadline,
  hasStarted,
  isCalledOff,
  isReservedBy,
} from '../booking-rules';
import {
  useGetActiveSchedulesQuery,
  useGetLessonMembersQuery,
  useReserveScheduleMutation,
} from '../schedule-api';
import { useCancelReservation } from '../use-cancel-reservation';
import { useTodayInJapan } from '../use-today-in-japan';
import { useWaitlist } from '../use-waitlist';
import { CallOffDialog } from './call-off-dialog';
import { LessonCardList } from './lesson-card';
import { ReservedActions, ReservedNotes } from './reserved-lesson';
import { WaitlistActions } from './waitlist-actions';

type ProLessonsProps = {
  proId: string;
  userId: string;
  /** Only amateurs reserve; others see the list. */
  canReserve: boolean;
  /** Admins may call a pro's lesson off (中止する). */
  canCallOff?: boolean;
};

/**
 * A pro's lessons from today on: 予約する on an open one, キャンセル待ち on a
 * full one, and on a reserved one the deadline, the chat, the calendar file
 * and キャンセル.
 */
export const ProLessons = ({
  proId,
  userId,
  canReserve,
  canCallOff = false,
}: ProLessonsProps) => {
  const today = useTodayInJapan();
  const now = useNow();
  const { data, isLoading, isError, refetch } = useGetActiveSchedulesQuery(
    { userId: proId },
    { refetchOnMountOrArgChange: true },
  );
  const lessons = (data ?? []).filter((s) => s.proId === proId);
  const { data: pros, isLoading: proLoading } = useGetLessonMembersQuery([
    proId,
  ]);
  const proName = pros?.[0] ? `${pros[0].userName}プロ` : 'プロ';
  // A pro the company has not verified takes no bookings (the server: 409).
  const proUnverified = pros?.[0]?.pro?.verified === false;
  // A lesson of today cannot be cancelled once booked: asked first.
  const [sameDay, setSameDay] = useState<Schedule | null>(null);
  const [reserve, reserveState] = useReserveScheduleMutation();
  const [notice, setNotice] = useState<string | null>(null);
  const [callingOff, setCallingOff] = useState<Schedule | null>(null);
  // Reserving, cancelling or waiting swaps the pressed button for other
  // controls; the focus follows to the lesson's new first control instead of
  // falling back to the top of the page (a keyboard user keeps their place).
  const [focusLesson, setFocusLesson] = useState<string | null>(null);
  const takeFocus = useCallback((el: HTMLElement | null) => el?.focus(), []);
  const cancel = useCancelReservation((s) => {
    setFocusLesson(s.id);
    setNotice('予約をキャンセルしました。');
  });
  const waitlist = useWaitlist((s, message) => {
    setFocusLesson(s.id);
    setNotice(message);
  });
  const busy = reserveState.isLoading || cancel.busy || waitlist.busy;
  const navigate = useNavigate();

  const onReserve = (s: Schedule) => {
    setNotice(null);
    if (mayCancelOn(s.date, today)) void reserveNow(s);
    else setSameDay(s);
  };

  const reserveNow = async (s: Schedule) => {
    // Paid online: the payment step holds the place and takes the card.
    if (paymentsEnabled() && s.fee > 0) {
      void navigate(paymentPath(s.id));
      return;
    }
    const result = await reserve({ id: s.id });
    // ScheduleFull and the like show the エラー alert; the list is refetched.
    if (result.data) {
      setFocusLesson(s.id);
      setNotice(
        `${formatDate(s.date)} ${s.startTime}〜のレッスンを予約しました。`,
      );
    }
  };

  const fallback = queryFallback(
    { isLoading, isError, refetch },
    'レッスンを読み込み中',
    'レッスンを読み込めませんでした。',
  );
  if (fallback) return fallback;

  const entryActions = (s: Schedule, focusRef?: typeof takeFocus) => {
    // Under the company's check: nothing to book, but a place in line can be left.
    if (proUnverified && s.waitlistPosition === undefined) return null;
    if (
      s.waitlistPosition === undefined &&
      (hasStarted(s, now) ||
        (s.statusRound !== 'open' && s.statusRound !== 'full'))
    )
      return (
        <button
          ref={focusRef}
          type="button"
          className="button button--primary"
          disabled
        >
          受付終了
        </button>
      );
    if (s.statusRound === 'full' || s.waitlistPosition !== undefined)
      return (
        <WaitlistActions
          schedule={s}
          busy={busy}
          onJoin={waitlist.join}
          onLeave={waitlist.leave}
          focusRef={focusRef}
        />
      );
    return (
      <button
        ref={focusRef}
        type="button"
        className="button button--primary"
        // Until the pro is known: a pro under check takes no bookings.
        disabled={busy || proLoading}
        onClick={() => onReserve(s)}
        aria-label={`${formatDate(s.date)} ${s.startTime}〜のレッスンを予約する`}
      >
        予約する
      </button>
    );
  };

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
      {canReserve && proUnverified && (
        <p className="form-note">
          このプロは運営による確認中のため、現在は予約できません。
        </p>
      )}
      {lessons.length === 0 && (
        <p className="lessons-empty">
          現在予定されているレッスンはありません。
        </p>
      )}
      <LessonCardList
        lessons={lessons}
        showDate
        card={(s) => {
          const reserved = canReserve && isReservedBy(s, userId);
          const focusRef = s.id === focusLesson ? takeFocus : undefined;
          const mayCallOff =
            canCallOff && !isCalledOff(s) && !hasStarted(s, now);
          const bookable =
            canReserve &&
            !reserved &&
            !proUnverified &&
            s.statusRound === 'open' &&
            !hasStarted(s, now);
          return {
            extra: reserved ? (
              <ReservedNotes
                schedule={s}
                mayCancel={cancel.mayCancel(s, today)}
                noteId={cancel.noteIdOf(s)}
              />
            ) : (
              bookable && (
                <p className="cancel-deadline cancel-deadline__date">
                  {mayCancelOn(s.date, today)
                    ? `キャンセル期限：${formatCancelDeadline(s.date)}`
                    : '本日のレッスンのため、予約後のキャンセルはできません。'}
                </p>
              )
            ),
            actions: canReserve ? (
              reserved ? (
                <ReservedActions
                  schedule={s}
                  proName={proName}
                  mayCancel={cancel.mayCancel(s, today)}
                  busy={busy}
                  onCancel={cancel.ask}
                  reservedMark
                  focusRef={focusRef}
                />
              ) : (
                entryActions(s, focusRef)
              )
            ) : mayCallOff ? (
              <button
                type="button"
                className="button button--text-danger"
                onClick={() => setCallingOff(s)}
                aria-label={`${formatDate(s.date)} ${s.startTime}のレッスンを中止する`}
              >
                中止する
              </button>
            ) : null,
          };
        }}
      />
      {!canReserve && (
        <p className="form-note">
          予約はアマチュア会員のみご利用いただけます。
        </p>
      )}
      <ConfirmDialog {...cancel.dialog} />
      <ConfirmDialog
        open={sameDay !== null}
        title="本日のレッスンの予約"
        message={
          sameDay
            ? `${formatDate(sameDay.date)} ${sameDay.startTime}〜 ${sameDay.place}は本日のレッスンです。予約後はキャンセルできません。予約しますか？`
            : ''
        }
        confirmLabel="予約する"
        cancelLabel="戻る"
        danger={false}
        busy={reserveState.isLoading}
        onConfirm={() => {
          const s = sameDay;
          setSameDay(null);
          if (s) void reserveNow(s);
        }}
        onCancel={() => setSameDay(null)}
      />
      {canCallOff && (
        <CallOffDialog
          schedule={callingOff}
          onClose={() => setCallingOff(null)}
          onDone={(s) =>
            setNotice(
              `${formatDate(s.date)} ${s.startTime}〜のレッスンを中止にしました。`,
            )
          }
        />
      )}
    </section>
  );
};
