import type { Competition } from '@proam/contract';
import type { ReactNode } from 'react';
import { CalendarIcon, PinIcon } from '@/components/icons';
import { formatDate, formatYen } from '@/lib/format';
import { STATUS_LABELS } from '../competition-status';

type CompetitionCardProps = {
  competition: Competition;
  headingLevel?: 'h2' | 'h3';
  /** Extra controls at the bottom of the card (the admins' buttons). */
  actions?: ReactNode;
};

export const CompetitionCard = ({
  competition: c,
  headingLevel = 'h3',
  actions,
}: CompetitionCardProps) => {
  const Heading = headingLevel;
  return (
    <article className="competition-card">
      <div className="competition-card__top">
        <span className={`status-badge status-badge--${c.status}`}>
          {STATUS_LABELS[c.status]}
        </span>
        {c.area && <span className="tag">{c.area}</span>}
      </div>
      <Heading className="competition-card__name">{c.name}</Heading>
      <dl className="competition-card__facts">
        <div>
          <dt>
            <CalendarIcon width={16} height={16} />
            開催日
          </dt>
          <dd>
            <time dateTime={c.date}>{formatDate(c.date)}</time>
          </dd>
        </div>
        <div>
          <dt>
            <PinIcon width={16} height={16} />
            会場
          </dt>
          <dd>{c.venue}</dd>
        </div>
        {c.entryDeadline && (
          <div>
            <dt>エントリー締切</dt>
            <dd>
              <time dateTime={c.entryDeadline}>
                {formatDate(c.entryDeadline)}
              </time>
            </dd>
          </div>
        )}
        {c.entryFee !== undefined && (
          <div>
            <dt>参加費</dt>
            <dd>{c.entryFee === 0 ? '無料' : formatYen(c.entryFee)}</dd>
          </div>
        )}
        {c.capacity !== undefined && (
          <div>
            <dt>定員</dt>
            <dd>{c.capacity}名</dd>
          </div>
        )}
      </dl>
      {c.description && (
        <p className="competition-card__description">{c.description}</p>
      )}
      {actions && <div className="competition-card__actions">{actions}</div>}
    </article>
  );
};
