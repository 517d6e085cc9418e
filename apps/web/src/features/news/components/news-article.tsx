import type { News } from '@proam/contract';
import { formatInstantDate, toJapanDate } from '@/lib/format';
import { newsParagraphs } from '../news-body';

type NewsArticleProps = {
  article: Pick<
    News,
    'title' | 'body' | 'category' | 'imageUrl' | 'publishedAt'
  >;
};

/**
 * One news article as the public 最新情報 page shows it (the admin preview
 * uses the same component, so what is previewed is what is published).
 */
export const NewsArticle = ({ article }: NewsArticleProps) => (
  <article className="article">
    <p className="article__meta">
      <time dateTime={toJapanDate(article.publishedAt)}>
        {formatInstantDate(article.publishedAt)}
      </time>
      {article.category && <span className="tag">{article.category}</span>}
    </p>
    {article.imageUrl && (
      <img
        className="article__image"
        src={article.imageUrl}
        alt=""
        loading="lazy"
      />
    )}
    <div className="article__body">
      {newsParagraphs(article.body).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  </article>
);
