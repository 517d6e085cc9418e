import type { News } from '@proam/contract';
import { Link } from 'react-router';
import { ChevronRightIcon } from '@/components/icons';
import { formatInstantDate, toJapanDate } from '@/lib/format';

type NewsListProps = { items: readonly News[] };

export const NewsList = ({ items }: NewsListProps) => (
  <ul className="news-list">
    {items.map((n) => (
      <li key={n.id} className="news-list__item">
        <Link
          to={`/info/${encodeURIComponent(n.id)}`}
          className="news-list__link"
        >
          <span className="news-list__meta">
            <time dateTime={toJapanDate(n.publishedAt)}>
              {formatInstantDate(n.publishedAt)}
            </time>
            {n.category && <span className="tag">{n.category}</span>}
          </span>
          <span className="news-list__title">{n.title}</span>
          <ChevronRightIcon className="news-list__chevron" />
        </Link>
      </li>
    ))}
  </ul>
);
