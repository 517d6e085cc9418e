import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { QueryState } from '@/components/query-state';
import { useGetNewsListQuery } from '@/features/news/news-api';
import { NewsList } from '@/features/news/components/news-list';
import { useDocumentTitle } from '@/hooks/use-document-title';

const PAGE_SIZE = 10;

const InfoListRoute = () => {
  useDocumentTitle('最新情報');
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('page') ?? '1');
  const page = Number.isInteger(raw) && raw >= 1 ? raw : 1;
  const { data, isLoading, isError, refetch, isFetching } = useGetNewsListQuery(
    { page, size: PAGE_SIZE },
  );
  const hasNext = (data?.length ?? 0) === PAGE_SIZE;

  const go = (p: number) => {
    setParams(p === 1 ? {} : { page: String(p) });
  };

  return (
    <>
      <PageHeader
        section="最新情報"
        title="最新情報"
        titleRight="NEWS"
        description="サービスのお知らせ、大会・イベント情報、キャンペーンなど、ProAm Connect の最新情報をお届けします。"
      />
      <div className="container section narrow">
        <QueryState
          query={{ isLoading, isError, refetch }}
          loading="最新情報を読み込み中"
          error="最新情報を読み込めませんでした。"
          isEmpty={!data || data.length === 0}
          empty={
            page === 1
              ? '現在お知らせはありません。'
              : 'このページにはお知らせがありません。'
          }
        >
          {() => data && <NewsList items={data} />}
        </QueryState>
        <Pager
          page={page}
          hasNext={hasNext}
          busy={isFetching}
          onGo={go}
          label="ページ送り"
          className="pager"
          buttonClassName="button button--outline"
          currentClassName="pager__current"
        />
      </div>
    </>
  );
};

export default InfoListRoute;
