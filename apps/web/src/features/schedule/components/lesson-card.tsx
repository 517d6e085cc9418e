import type { ReactNode } from 'react';
import type { Schedule } from '@proam/contract';
import { StatusBadge } from '@/components/status-badge';
import { formatDate } from '@/lib/format';
import { lessonFeeLabel } from '@/lib/payment-mode';
import { isCalledOff, mapSearchUrl } from '../booking-rules';

export type LessonCardProps = {
  schedule: Schedule;
  /** Show the date too (lists spanning several days). */
  showDate?: boolean;
  /** e.g. the pro's name for an amateur. */
  extra?: ReactNode;
  /** After the note, before the actions: the review part (口コミ). */
  footer?: ReactNode;
  actions?: ReactNode;
  headingLevel?: 'h3' | 'h4';
};

/**
 * One round lesson: time, place (with a map link), area, 定員, 料金, the
 * waitlist, status, why it was called off, then the actions.
 */
export const LessonCard = ({
  schedule: s,
  showDate = false,
  extra,
  footer,
  actions,
  headingLevel: Heading = 'h3',
}: LessonCardProps) => (
  <article className={`lesson-card lesson-card--${s.statusRound}`}>
    <div className="lesson-card__top">
      <Heading className="lesson-card__time">
        {showDate && (
          <span className="lesson-card__date">{formatDate(s.date)}</span>
        )}
        {s.startTime}〜{s.endTime}
      </Heading>
      <StatusBadge status={s.statusRound} />
    </div>
    <p className="lesson-card__place">
      <span>
        {s.place}
        {s.area && <span className="lesson-card__area">（{s.area}）</span>}
      </span>
      <a
        className="lesson-card__map"
        href={mapSearchUrl(s.place)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`地図で見る：${s.place}（新しいタブで開きます）`}
      >
        地図で見る
      </a>
    </p>
    {isCalledOff(s) && (
      <div className="lesson-card__called-off">
        <p className="lesson-card__called-off-lead">
          このレッスンは中止になりました。
        </p>
        {s.callOffReason && <p>中止の理由：{s.callOffReason}</p>}
      </div>
    )}
    <dl className="lesson-card__facts">
      <div>
        <dt>定員</dt>
        <dd>
          {s.reservedCount}/{s.capacity}名
        </dd>
      </div>
      <div>
        <dt>料金</dt>
        <dd>{lessonFeeLabel(s.fee)}</dd>
      </div>
      {s.waitlistCount > 0 && (
        <div>
          <dt>キャンセル待ち</dt>
          <dd>{s.waitlistCount}人</dd>
        </div>
      )}
    </dl>
    {extra}
    {s.note && <p className="lesson-card__note">{s.note}</p>}
    {footer}
    {actions && <div className="lesson-card__actions">{actions}</div>}
  </article>
);

type LessonCardListProps = {
  lessons: readonly Schedule[];
  showDate?: boolean;
  /** Each lesson's extra, footer and actions. */
  card: (s: Schedule) => Omit<LessonCardProps, 'schedule' | 'showDate'>;
};

/** Lessons as a list of cards. */
export const LessonCardList = ({
  lessons,
  showDate,
  card,
}: LessonCardListProps) => (
  <ul className="lesson-list">
    {lessons.map((s) => (
      <li key={s.id}>
        <LessonCard schedule={s} showDate={showDate} {...card(s)} />
      </li>
    ))}
  </ul>
);
