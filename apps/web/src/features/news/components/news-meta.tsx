import type { News } from '@proam/contract';
import { formatInstantDate, toJapanDate } from '@/lib/format';

type NewsMetaProps = {
  news: Pick<News, 'category' | 'publishedAt'>;
  /** `p` in an article, `span` inside a list link. */
  as: 'p' | 'span';
  className: string;
};

/** An article's publishing date and category, in the list and the article alike. */
export const NewsMeta = ({ news, as: Tag, className }: NewsMetaProps) => (
  <Tag className={className}>
    <time dateTime={toJapanDate(news.publishedAt)}>
      {formatInstantDate(news.publishedAt)}
    </time>
    {news.category && <span className="tag">{news.category}</span>}
  </Tag>
);
