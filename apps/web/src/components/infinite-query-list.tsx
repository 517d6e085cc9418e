import type { ReactNode } from 'react';
import { LoadMore } from './form/form-actions';
import { QueryState, type QueryStatus } from './query-state';

type QueryListProps<T> = {
  query: QueryStatus;
  /** QueryState's spinner label, error text and empty note. */
  loading: string;
  error: string;
  empty: ReactNode;
  items: readonly T[];
  /** The `ul`'s class, and its accessible name where the page needs one. */
  className: string;
  label?: string;
  /** One item of the list, with its key (a `li` or a component that is one). */
  children: (item: T) => ReactNode;
  /** Under the list (もっと見る). */
  after?: ReactNode;
};

/** A list that a query reads: the loading, error and empty states, then the `ul`. */
export const QueryList = <T,>({
  query,
  loading,
  error,
  empty,
  items,
  className,
  label,
  children,
  after,
}: QueryListProps<T>) => (
  <QueryState
    query={query}
    loading={loading}
    error={error}
    isEmpty={items.length === 0}
    empty={empty}
  >
    {() => (
      <>
        <ul className={className} aria-label={label}>
          {items.map((item) => children(item))}
        </ul>
        {after}
      </>
    )}
  </QueryState>
);

/** The parts of an RTK Query infinite query (pages of items) that a paged list shows. */
export type InfiniteListQuery<T> = QueryStatus & {
  data?: { pages: readonly (readonly T[])[] };
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

/** もっと見る under a paged list while the query has another page; nothing once it has not. */
export const NextPage = ({
  query,
  className = 'button-row button-row--center',
}: {
  query: Pick<
    InfiniteListQuery<unknown>,
    'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'
  >;
  className?: string;
}) =>
  query.hasNextPage ? (
    <LoadMore
      className={className}
      loading={query.isFetchingNextPage}
      onLoad={query.fetchNextPage}
    />
  ) : null;

type InfiniteQueryListProps<T> = Pick<
  QueryListProps<T>,
  'loading' | 'error' | 'empty' | 'children'
> & {
  query: InfiniteListQuery<T>;
  /** The `ul`'s class and the class of the もっと見る row under it. */
  listClassName: string;
  moreClassName: string;
};

/**
 * A list read page by page, newest first: every page loaded so far, and
 * もっと見る while more remain.
 */
export const InfiniteQueryList = <T,>({
  query,
  listClassName,
  moreClassName,
  ...texts
}: InfiniteQueryListProps<T>) => (
  <QueryList
    {...texts}
    query={query}
    items={query.data?.pages.flat() ?? []}
    className={listClassName}
    after={<NextPage query={query} className={moreClassName} />}
  />
);
