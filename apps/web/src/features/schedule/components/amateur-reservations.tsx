import {
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Schedule } from '@proam/contract';
import { StatusNotice } from '@/components/flash-status';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { queryFallback } from '@/components/query-state';
import { useNow } from '@/hooks/use-now';
import { formatDate } from '@/lib/format';
import {
  hasEnded,
  isCalledOff,
  isReservedBy,
  mayReview,
} from '../booking-rules';
import {
  useGetLessonMembersQuery,
  useGetSchedulesByIdQuery,
} from '../schedule-api';
import { useCancelReservation } from '../use-cancel-reservation';
import { useTodayInJapan } from '../use-today-in-japan';
import { useWaitlist } from '../use-waitlist';
import { LessonCardList } from './lesson-card';
import { ChatLink, ReservedActions, ReservedNotes } from './reserved-lesson';
import { WaitlistActions } from './waitlist-actions';
import { compareCodeUnits } from '@/lib/compare';

/** Unique ids in a stable order, so the members query is cached per set. */
export const uniqueIds = (ids: readonly string[]): string[] =>
  [...new Set(ids)].sort();

type LessonSectionProps = {
  /** The heading's id. */
  id: string;
  className: string;
  title: string;
} & Pick<ComponentProps<typeof LessonCardList>, 'lessons' | 'card'>;

/**
 * A titled group of lessons after the reserved ones (キャンセル待ち, 受講した);
 * nothing while there are none.
 */
const LessonSection = ({
  id,
  className,
  title,
  lessons,
  card,
}: LessonSectionProps) =>
  lessons.length === 0 ? null : (
    <section className={className} aria-labelledby={id}>
      <h2 id={id} className="lessons-title">
        {title}
      </h2>
      <LessonCardList lessons={lessons} showDate card={card} />
    </section>
  );

/** How many past lessons are listed for a review. */
export const PAST_LESSONS_SHOWN = 10;

type AmateurReservationsProps = {
  userId: string;
  /**
   * The review part of a lesson the member may review (from its day on):
   * the invitation or their review. Composed in by the route, since reviews
   * are another feature.
   */
  reviewSlot?: (schedule: Schedule, lessonLabel: string) => ReactNode;
};

/**
 * The amateur's lessons from today on: the reserved ones (called-off ones
 * too, with the reason) with the deadline, the chat, the calendar file and
 * キャンセル; then the ones they wait for (キャンセル待ち); then the recent
 * lessons they took part in, for a review.
 */
export const AmateurReservations = ({
  userId,
  reviewSlot,
}: AmateurReservationsProps) => {
  const today = useTodayInJapan();
  const now = useNow();
  // Every lesson of the member (getActive leaves out called-off ones, which
  // the participants must still see); past ones are listed apart, for a review.
  const { data, isLoading, isError, refetch } = useGetSchedulesByIdQuery(
    { userId },
    { refetchOnMountOrArgChange: true },
  );
  // Until its end, a lesson is upcoming whatever its status says (a pro may
  // mark a day 終了 early); after it, a past one.
  const upcoming = (data ?? []).filter((s) => !hasEnded(s, now));
  const lessons = upcoming.filter((s) => isReservedBy(s, userId));
  const waiting = upcoming.filter(
    (s) => !isReservedBy(s, userId) && s.waitlistPosition !== undefined,
  );
  const past = reviewSlot
    ? (data ?? [])
        .filter((s) => mayReview(s, userId, now))
        .sort((a, b) =>
          a.date === b.date
            ? compareCodeUnits(b.startTime, a.startTime)
            : compareCodeUnits(b.date, a.date),
        )
        .slice(0, PAST_LESSONS_SHOWN)
    : [];
  const proIds = uniqueIds(
    [...lessons, ...waiting, ...past].map((s) => s.proId),
  );
  const review = (s: Schedule) =>
    reviewSlot && mayReview(s, userId, now)
      ? reviewSlot(s, formatDate(s.date))
      : null;
  const { data: pros } = useGetLessonMembersQuery(
    proIds.length ? proIds : skipToken,
  );
  const proName = (id: string) => {
    const name = pros?.find((u) => u.id === id)?.userName;
    return name ? `${name}プロ` : 'プロ';
  };
  // A new object per message, so the same sentence twice is announced twice.
  const [notice, setNotice] = useState<{ text: string } | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const announce = (text: string) => setNotice({ text });
  // The card and its focused button go away: the focus moves to the notice
  // (after the dialog has closed: this effect runs after the dialog's own).
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);
  const cancel = useCancelReservation(() =>
    announce('予約をキャンセルしました。'),
  );
  const waitlist = useWaitlist((_s, message) => announce(message));

  const proLine = (s: Schedule) => (
    <p className="lesson-card__pro">
      プロ：
      <Link to={`/tabs/schedule/pro/${s.proId}`}>{proName(s.proId)}</Link>
    </p>
  );

  return (
    <section className="reservations" aria-labelledby="reservations-title">
      <h2 id="reservations-title" className="lessons-title">
        予約中のレッスン
      </h2>
      <StatusNotice
        ref={noticeRef}
        className="day-panel__notice"
        text={notice?.text}
      />
      {queryFallback(
        { isLoading, isError, refetch },
        '予約を読み込み中',
        '予約中のレッスンを読み込めませんでした。',
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
      <LessonCardList
        lessons={lessons}
        showDate
        card={(s) => {
          const calledOff = isCalledOff(s);
          const mayCancel = cancel.mayCancel(s, today);
          return {
            extra: (
              <>
                {proLine(s)}
                {!calledOff && (
                  <ReservedNotes
                    schedule={s}
                    mayCancel={mayCancel}
                    noteId={cancel.noteIdOf(s)}
                  />
                )}
              </>
            ),
            footer: review(s),
            actions: (
              <ReservedActions
                schedule={s}
                proName={proName(s.proId)}
                calledOff={calledOff}
                mayCancel={mayCancel}
                busy={cancel.busy}
                onCancel={cancel.ask}
                chatPrimary
              />
            ),
          };
        }}
      />
      <LessonSection
        id="waiting-title"
        className="reservations__waiting"
        title="キャンセル待ち中のレッスン"
        lessons={waiting}
        card={(s) => ({
          extra: proLine(s),
          actions: (
            <WaitlistActions
              schedule={s}
              busy={waitlist.busy}
              onJoin={waitlist.join}
              onLeave={waitlist.leave}
            />
          ),
        })}
      />
      <LessonSection
        id="past-lessons-title"
        className="reservations__past"
        title="受講したレッスン"
        lessons={past}
        card={(s) => ({
          extra: proLine(s),
          footer: review(s),
          actions: <ChatLink schedule={s} />,
        })}
      />
      <ConfirmDialog {...cancel.dialog} />
    </section>
  );
};
