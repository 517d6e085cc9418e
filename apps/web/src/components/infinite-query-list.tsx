import type { ReactNode } from 'react';
import { LoadMore } from './form/form-actions';
import { QueryState, type QueryStatus } from './query-state';

/** The parts of an RTK Query infinite query (pages of items) that a paged list shows. */
export type InfiniteListQuery<T> = QueryStatus & {
  data?: { pages: readonly (readonly T[])[] };
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

type InfiniteQueryListProps<T> = {
  query: InfiniteListQuery<T>;
  /** QueryState's spinner label, error text and empty note. */
  loading: string;
  error: string;
  empty: ReactNode;
  /** The `ul`'s class and the class of the もっと見る row under it. */
  listClassName: string;
  moreClassName: string;
  /** One item of the list, with its key (a `li` or a component that is one). */
  children: (item: T) => ReactNode;
};

/**
 * A list read page by page, newest first: the loading, error and empty
 * states, every page loaded so far, and もっと見る while more remain.
 */
export const InfiniteQueryList = <T,>({
  query,
  loading,
  error,
  empty,
  listClassName,
  moreClassName,
  children,
}: InfiniteQueryListProps<T>) => {
  const items = query.data?.pages.flat() ?? [];
  return (
    <QueryState
      query={query}
      loading={loading}
      error={error}
      isEmpty={items.length === 0}
      empty={empty}
    >
      {() => (
        <>
          <ul className={listClassName}>
            {items.map((item) => children(item))}
          </ul>
          {query.hasNextPage && (
            <LoadMore
              className={moreClassName}
              loading={query.isFetchingNextPage}
              onLoad={query.fetchNextPage}
            />
          )}
        </>
      )}
    </QueryState>
  );
};
