import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Schedule } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { useAppDispatch } from '@/lib/store-hooks';
import { apiErrorOf } from '@/lib/server-errors';
import { useNow } from '@/hooks/use-now';
import { formatDate } from '@/lib/format';
import { errorAlertRaised } from '@/lib/ui-slice';
import { hasStarted, isCalledOff } from '../booking-rules';
import { monthOf, type YearMonth } from '../calendar';
import {
  useDeleteScheduleMutation,
  useGetSchedulesByIdQuery,
  useUpdateRoundMutation,
  useGetLessonMembersQuery,
} from '../schedule-api';
import {
  DAY_STATUS_OPTIONS,
  isStatusRound,
  STATUS_OPTIONS,
} from '../schedule-status';
import { CallOffDialog } from './call-off-dialog';
import { LessonCardList } from './lesson-card';
import { LessonForm } from './lesson-form';
import { MonthCalendar } from './month-calendar';
import { compareCodeUnits } from '@/lib/compare';

type Editing = { mode: 'create' } | { mode: 'edit'; schedule: Schedule };

/** The pro's own lessons: month calendar, the chosen day's lessons, the form. */
export const ProSchedule = ({
  proId,
  today,
}: {
  proId: string;
  today: string;
}) => {
  const dispatch = useAppDispatch();
  const { data, isLoading, isError, refetch } = useGetSchedulesByIdQuery(
    { userId: proId },
    // Amateurs reserve meanwhile: show the current counts on every visit.
    { refetchOnMountOrArgChange: true },
  );
  const [month, setMonth] = useState<YearMonth>(() => monthOf(today));
  const [selected, setSelected] = useState(today);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const [callingOff, setCallingOff] = useState<Schedule | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // A call-off takes away the button that had the focus: the focus goes to
  // the notice that says what happened (after the dialog has closed).
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const [focusNotice, setFocusNotice] = useState(0);
  useEffect(() => {
    if (focusNotice) noticeRef.current?.focus();
  }, [focusNotice]);
  const [updateRound, roundState] = useUpdateRoundMutation();
  const [remove, removeState] = useDeleteScheduleMutation();
  const now = useNow();

  const lessons = useMemo(
    () => (data ?? []).filter((s) => s.proId === proId),
    [data, proId],
  );
  const marked = useMemo(() => new Set(lessons.map((s) => s.date)), [lessons]);
  const dayLessons = lessons
    .filter((s) => s.date === selected)
    .sort((a, b) => compareCodeUnits(a.startTime, b.startTime));
  // Who booked the day's lessons, by name: the pro meets them (and, paid at
  // the course, collects each one's fee).
  const bookedIds = [
    ...new Set(dayLessons.flatMap((s) => s.participants ?? [])),
  ].sort(compareCodeUnits);
  // `currentData`: another day's names are not shown while this day's load.
  const { currentData: booked } = useGetLessonMembersQuery(
    bookedIds.length ? bookedIds : skipToken,
  );
  // A member the list leaves out (suspended) still holds the place.
  const nameOf = (id: string) =>
    booked?.find((u) => u.id === id)?.userName ?? '（表示できない会員）';
  const dayStatus = dayLessons.every(
    (s) => s.statusRound === dayLessons[0]?.statusRound,
  )
    ? (dayLessons[0]?.statusRound ?? '')
    : '';

  const choose = (date: string) => {
    setSelected(date);
    setNotice(null);
  };

  const onRoundChange = async (value: string) => {
    if (!isStatusRound(value)) return;
    const result = await updateRound({
      proId,
      date: selected,
      statusRound: value,
    });
    if (result.data)
      setNotice(
        `${formatDate(selected)}のラウンド状況を「${STATUS_OPTIONS.find((o) => o.value === value)?.label}」にしました。${value === 'open' ? '空きのないレッスンは満員のままです。' : ''}`,
      );
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const schedule = deleting;
    const result = await remove({ id: schedule.id });
    const error = apiErrorOf(result);
    setDeleting(null);
    if (error?.code === 'Conflict') {
      // Reserved meanwhile: it can only be called off now, with a reason.
      setNotice(
        'このレッスンには予約が入ったため削除できません。中止する場合は理由を入力してください。',
      );
      setCallingOff(schedule);
      return;
    }
    if (error) dispatch(errorAlertRaised(error));
    else setNotice('レッスンを削除しました。');
  };

  if (editing) {
    return (
      <LessonForm
        schedule={editing.mode === 'edit' ? editing.schedule : undefined}
        date={selected < today ? today : selected}
        today={today}
        onCancel={() => setEditing(null)}
        onDone={(saved) => {
          setEditing(null);
          setSelected(saved.date);
          setMonth(monthOf(saved.date));
          setNotice(
            editing.mode === 'edit'
              ? 'レッスンを更新しました。'
              : 'レッスンを登録しました。',
          );
        }}
      />
    );
  }

  return (
    <div className="pro-schedule">
      <div className="pro-schedule__calendar">
        <MonthCalendar
          month={month}
          selected={selected}
          today={today}
          marked={marked}
          onSelect={choose}
          onMonthChange={setMonth}
        />
        {isLoading && <Spinner label="スケジュールを読み込み中" />}
        {isError && (
          <InlineError
            message="スケジュールを読み込めませんでした。"
            onRetry={() => void refetch()}
          />
        )}
      </div>
      <section className="day-panel" aria-labelledby="day-panel-title">
        <div className="day-panel__head">
          <h2 id="day-panel-title" className="day-panel__title">
            {formatDate(selected)}のレッスン
          </h2>
          <button
            type="button"
            className="button button--primary"
            onClick={() => setEditing({ mode: 'create' })}
          >
            ＋ 新規レッスン
          </button>
        </div>
        {notice && (
          <p
            ref={noticeRef}
            tabIndex={-1}
            className="day-panel__notice"
            role="status"
          >
            {notice}
          </p>
        )}
        <div className="form-field day-panel__round">
          <label htmlFor="day-round" className="form-field__label">
            この日のラウンド状況
          </label>
          <select
            id="day-round"
            value={dayStatus}
            disabled={dayLessons.length === 0 || roundState.isLoading}
            aria-describedby="day-round-hint"
            onChange={(e) => void onRoundChange(e.target.value)}
          >
            <option value="" disabled>
              {dayLessons.length === 0
                ? 'レッスンがありません'
                : '選択してください'}
            </option>
            {DAY_STATUS_OPTIONS.map((o) => (
              <option
                key={o.value}
                value={o.value}
                // 終了 once the day has come: a later day's lessons are still to be held.
                disabled={
                  o.disabled || (o.value === 'done' && selected > today)
                }
              >
                {o.label}
              </option>
            ))}
          </select>
          <p id="day-round-hint" className="form-field__hint">
            この日のすべてのレッスンに反映されます。満員は、空きがなくなると自動で切り替わります（募集中にしても、空きのないレッスンは満員のままです）。
          </p>
        </div>
        {!isLoading && !isError && dayLessons.length === 0 && (
          <p className="lessons-empty">
            この日のレッスンはありません。「新規レッスン」から登録できます。
          </p>
        )}
        <LessonCardList
          lessons={dayLessons}
          card={(s) => ({
            extra: s.participants?.length ? (
              <p className="lesson-card__participants">
                参加者：
                {booked
                  ? s.participants.map(nameOf).join('、')
                  : `${s.participants.length}名`}
              </p>
            ) : null,
            actions: (
              <>
                <button
                  type="button"
                  className="button button--outline"
                  onClick={() => setEditing({ mode: 'edit', schedule: s })}
                  aria-label={`${s.startTime}のレッスンを編集`}
                >
                  編集
                </button>
                {s.reservedCount > 0 && (
                  <Link
                    to={`/tabs/chat/${s.id}`}
                    className="button button--outline"
                    aria-label={`${s.startTime}のレッスンのチャット`}
                  >
                    チャット
                  </Link>
                )}
                {s.reservedCount === 0 ? (
                  <button
                    type="button"
                    className="button button--text-danger"
                    onClick={() => setDeleting(s)}
                    aria-label={`${s.startTime}のレッスンを削除`}
                  >
                    削除
                  </button>
                ) : (
                  !isCalledOff(s) &&
                  s.statusRound !== 'done' &&
                  !hasStarted(s, now) && (
                    <button
                      type="button"
                      className="button button--text-danger"
                      onClick={() => setCallingOff(s)}
                      aria-label={`${s.startTime}のレッスンを中止する`}
                    >
                      中止する
                    </button>
                  )
                )}
              </>
            ),
          })}
        />
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title="レッスンの削除"
        message={
          deleting
            ? `${formatDate(deleting.date)} ${deleting.startTime}のレッスンを削除します。よろしいですか？`
            : ''
        }
        confirmLabel="削除する"
        busy={removeState.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
      <CallOffDialog
        schedule={callingOff}
        onClose={() => setCallingOff(null)}
        onDone={(s) => {
          setNotice(
            `${formatDate(s.date)} ${s.startTime}のレッスンを中止にしました。参加者にお知らせしました。`,
          );
          setFocusNotice((n) => n + 1);
        }}
      />
    </div>
  );
};
