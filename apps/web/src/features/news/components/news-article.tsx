import { mediaUrl } from '@/config/env';
import type { News } from '@proam/contract';
import { newsParagraphs } from '../news-body';
import { NewsMeta } from './news-meta';

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
    <NewsMeta news={article} as="p" className="article__meta" />
    {article.imageUrl && (
      <img
        className="article__image"
        src={mediaUrl(article.imageUrl)}
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
