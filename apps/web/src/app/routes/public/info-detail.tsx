import { Link, useParams } from 'react-router';
import { ChevronRightIcon } from '@/components/icons';
import { NoticeCard } from '@/components/notice-card';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { NewsArticle } from '@/features/news/components/news-article';
import { newsApi, useGetNewsQuery } from '@/features/news/news-api';
import type { RoutePrefetch } from '@/app/route-prefetch';
import { useDocumentTitle } from '@/hooks/use-document-title';

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Opening an article directly: ask for it while the app is still starting. */
export const prefetch: RoutePrefetch = (dispatch, { id = '' }) => {
  if (ID_RE.test(id)) void dispatch(newsApi.util.prefetch('getNews', id, {}));
};

const InfoDetailRoute = () => {
  const { id = '' } = useParams();
  const validId = ID_RE.test(id);
  // An id that cannot exist is answered here instead of asking the server.
  const { data, isLoading, isError, refetch } = useGetNewsQuery(id, {
    skip: !validId,
  });
  const article = validId ? data : null;
  const notFound = !isLoading && !isError && article === null;
  useDocumentTitle(
    article ? article.title : notFound ? '記事が見つかりません' : '最新情報',
  );

  return (
    <>
      <PageHeader
        section="最新情報"
        sectionTo="/info"
        subtitle={
          article?.title ?? (notFound ? '記事が見つかりません' : undefined)
        }
        title={
          notFound ? '記事が見つかりません' : (article?.title ?? '最新情報')
        }
        titleRight="NEWS"
      />
      <div className="container section narrow">
        <QueryState
          query={{ isLoading, isError, refetch }}
          loading="記事を読み込み中"
          error="記事を読み込めませんでした。"
        >
          {() =>
            notFound || !article ? (
              <NoticeCard
                lead="お探しの記事は見つかりませんでした。"
                text="記事が削除されたか、URLが間違っている可能性があります。"
              />
            ) : (
              <NewsArticle article={article} />
            )
          }
        </QueryState>
        <p>
          <Link to="/info" className="text-link">
            最新情報の一覧へ戻る
            <ChevronRightIcon width={18} height={18} />
          </Link>
        </p>
      </div>
    </>
  );
};

export default InfoDetailRoute;
