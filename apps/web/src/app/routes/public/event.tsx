import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import {
  finishedCompetitions,
  upcomingCompetitions,
} from '@/features/competitions/competition-status';
import { useGetCompetitionsQuery } from '@/features/competitions/competitions-api';
import {
  CompetitionGrid,
  CompetitionResults,
  CompetitionSection,
} from '@/features/competitions/components/competition-lists';
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
        <QueryState
          query={{ isLoading, isError, isFetching, refetch }}
          loading="大会情報を読み込み中"
          error="大会情報を読み込めませんでした。通信環境をご確認のうえ、再度お試しください。"
        >
          {() => (
            <>
              <CompetitionSection id="upcoming-title" title="開催予定">
                <CompetitionGrid
                  competitions={upcoming}
                  empty="現在、開催予定の大会はありません。次回の発表をお待ちください。"
                />
              </CompetitionSection>

              <CompetitionSection id="results-title" title="大会結果" gap>
                <CompetitionResults
                  competitions={finished}
                  empty="終了した大会の結果はまだありません。"
                />
              </CompetitionSection>
            </>
          )}
        </QueryState>
      </div>
    </>
  );
};

export default EventRoute;
