import type { Competition } from '@proam/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CalendarIcon, PinIcon } from '@/components/icons';
import { formatDate, formatYenSuffix } from '@/lib/format';
import { ENTRY_CONTACT_CATEGORY, STATUS_LABELS } from '../competition-status';

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
            <dd>{c.entryFee === 0 ? '無料' : formatYenSuffix(c.entryFee)}</dd>
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
      {c.status === 'open' && (
        <p className="competition-card__description competition-card__entry">
          エントリーは<Link to="/contact">お問い合わせフォーム</Link>
          で受け付けています。お問い合わせ種別「{ENTRY_CONTACT_CATEGORY}
          」を選び、大会名を添えてお申し込みください。
        </p>
      )}
      {actions && <div className="competition-card__actions">{actions}</div>}
    </article>
  );
};
