import { InlineError } from '@/components/inline-error';
import { PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import {
  finishedCompetitions,
  upcomingCompetitions,
} from '@/features/competitions/competition-status';
import { useGetCompetitionsQuery } from '@/features/competitions/competitions-api';
import { CompetitionCard } from '@/features/competitions/components/competition-card';
import { ResultsTable } from '@/features/competitions/components/results-table';
import { formatDate } from '@/lib/format';
import { useDocumentTitle } from '@/hooks/use-document-title';

const EventRoute = () => {
  useDocumentTitle('イベント日程・結果');
  const { data, isLoading, isError, refetch, isFetching } =
    useGetCompetitionsQuery({});
  const upcoming = upcomingCompetitions(data ?? []);
  const finished = finishedCompetitions(data ?? []);

  return (
    <>
      <PageHeader
        section="イベント日程・結果"
        title="イベント日程・結果"
        titleRight="EVENTS & RESULTS"
        description="ProAm Connect が主催・協賛するプロアム大会と交流イベントの開催予定、終了した大会の結果をご案内します。"
      />
      <div className="container section">
        {isLoading ? (
          <div className="page-loading">
            <Spinner label="大会情報を読み込み中" />
          </div>
        ) : isError ? (
          <InlineError
            message="大会情報を読み込めませんでした。通信環境をご確認のうえ、再度お試しください。"
            onRetry={isFetching ? undefined : () => void refetch()}
          />
        ) : (
          <>
            <section aria-labelledby="upcoming-title" className="stack">
              <h2 id="upcoming-title" className="section__title">
                開催予定
              </h2>
              {upcoming.length === 0 ? (
                <p className="muted">
                  現在、開催予定の大会はありません。次回の発表をお待ちください。
                </p>
              ) : (
                <div className="card-grid">
                  {upcoming.map((c) => (
                    <CompetitionCard key={c.id} competition={c} />
                  ))}
                </div>
              )}
              <p className="muted">
                エントリー方法は大会ごとに異なります。詳しくはお問い合わせフォームの「大会・イベントについて」からお問い合わせください。
              </p>
            </section>

            <section
              aria-labelledby="results-title"
              className="stack section-gap"
            >
              <h2 id="results-title" className="section__title">
                大会結果
              </h2>
              {finished.length === 0 ? (
                <p className="muted">終了した大会の結果はまだありません。</p>
              ) : (
                finished.map((c) => (
                  <article key={c.id} className="result-block">
                    <header className="result-block__head">
                      <h3 className="result-block__name">{c.name}</h3>
                      <p className="result-block__meta">
                        <time dateTime={c.date}>{formatDate(c.date)}</time>
                        <span aria-hidden="true"> ／ </span>
                        <span className="visually-hidden">会場：</span>
                        {c.venue}
                      </p>
                    </header>
                    <ResultsTable competition={c} />
                  </article>
                ))
              )}
            </section>
          </>
        )}
      </div>
    </>
  );
};

export default EventRoute;
