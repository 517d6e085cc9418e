import type { ReactNode } from 'react';
import { InlineError } from './inline-error';
import { Spinner } from './spinner';

/** The parts of an RTK Query result that decide what a list or page shows. */
export type QueryStatus = {
  isLoading: boolean;
  isError: boolean;
  /** Given: no 再読み込み button while a request is already under way. */
  isFetching?: boolean;
  refetch: () => unknown;
};

type QueryStateProps = {
  query: QueryStatus;
  /** The spinner's label, e.g. 「記事を読み込み中」. */
  loading: string;
  /** The error's text, e.g. 「記事を読み込めませんでした。」. */
  error: string;
  /** With `empty`: the query answered with nothing to show. */
  isEmpty?: boolean;
  empty?: ReactNode;
  /** Called only once the data is there, so it may assume it. */
  children: () => ReactNode;
};

/**
 * What a query shows before its data: the spinner (in the page's loading box
 * when `boxed`) or the error with 再読み込み; null once the data is there.
 * For a part of a page that shows its data its own way.
 */
export const queryFallback = (
  { isLoading, isError, isFetching, refetch }: QueryStatus,
  loading: string,
  error: string,
  boxed = false,
): ReactNode => {
  if (isLoading) {
    const spinner = <Spinner label={loading} />;
    return boxed ? <div className="page-loading">{spinner}</div> : spinner;
  }
  if (isError)
    return (
      <InlineError
        message={error}
        onRetry={isFetching ? undefined : () => void refetch()}
      />
    );
  return null;
};

/**
 * The loading spinner, the error with 再読み込み and the muted empty note
 * that every read-only list and page shows before its content.
 */
export const QueryState = ({
  query,
  loading,
  error,
  isEmpty = false,
  empty,
  children,
}: QueryStateProps) => {
  const fallback = queryFallback(query, loading, error, true);
  if (fallback) return fallback;
  if (isEmpty && empty !== undefined) return <p className="muted">{empty}</p>;
  return <>{children()}</>;
};
