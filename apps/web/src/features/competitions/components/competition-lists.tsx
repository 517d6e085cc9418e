import type { Competition } from '@proam/contract';
import type { ReactNode } from 'react';
import { formatDate } from '@/lib/format';
import { CompetitionCard } from './competition-card';
import { ResultsTable } from './results-table';

type CompetitionListProps = {
  competitions: Competition[];
  /** The muted note shown when there is none. */
  empty: string;
  /** The admins' buttons for one competition, if any. */
  renderActions?: (c: Competition) => ReactNode;
};

/** Competitions as a grid of cards (drafts, upcoming). */
export const CompetitionGrid = ({
  competitions,
  empty,
  renderActions,
}: CompetitionListProps) =>
  competitions.length === 0 ? (
    <p className="muted">{empty}</p>
  ) : (
    <div className="card-grid">
      {competitions.map((c) => (
        <CompetitionCard
          key={c.id}
          competition={c}
          actions={renderActions?.(c)}
        />
      ))}
    </div>
  );

/** Finished competitions, each with its results table. */
export const CompetitionResults = ({
  competitions,
  empty,
  renderActions,
  showArea = false,
}: CompetitionListProps & { showArea?: boolean }) =>
  competitions.length === 0 ? (
    <p className="muted">{empty}</p>
  ) : (
    competitions.map((c) => (
      <article key={c.id} className="result-block">
        <header className="result-block__head">
          <h3 className="result-block__name">{c.name}</h3>
          <p className="result-block__meta">
            <time dateTime={c.date}>{formatDate(c.date)}</time>
            <span aria-hidden="true"> ／ </span>
            <span className="visually-hidden">会場：</span>
            {c.venue}
            {showArea && c.area && (
              <>
                <span aria-hidden="true"> ／ </span>
                {c.area}
              </>
            )}
          </p>
        </header>
        <ResultsTable competition={c} />
        {renderActions?.(c)}
      </article>
    ))
  );

type CompetitionSectionProps = {
  /** The h2's id: the section is named by its heading. */
  id: string;
  title: ReactNode;
  /** The space above every section but the page's first. */
  gap?: boolean;
  children: ReactNode;
};

/** One list of the competitions pages (下書き, 開催予定, 結果) under its heading. */
export const CompetitionSection = ({
  id,
  title,
  gap = false,
  children,
}: CompetitionSectionProps) => (
  <section aria-labelledby={id} className={gap ? 'stack section-gap' : 'stack'}>
    <h2 id={id} className="section__title">
      {title}
    </h2>
    {children}
  </section>
);
