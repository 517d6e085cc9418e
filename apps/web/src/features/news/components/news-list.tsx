import type { News } from '@proam/contract';
import { Link } from 'react-router';
import { ChevronRightIcon } from '@/components/icons';
import { NewsMeta } from './news-meta';

type NewsListProps = { items: readonly News[] };

export const NewsList = ({ items }: NewsListProps) => (
  <ul className="news-list">
    {items.map((n) => (
      <li key={n.id} className="news-list__item">
        <Link
          to={`/info/${encodeURIComponent(n.id)}`}
          className="news-list__link"
        >
          <NewsMeta news={n} as="span" className="news-list__meta" />
          <span className="news-list__title">{n.title}</span>
          <ChevronRightIcon className="news-list__chevron" />
        </Link>
      </li>
    ))}
  </ul>
);
