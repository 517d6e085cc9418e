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
 * The loading spinner, the error with 再読み込み and the muted empty note
 * that every read-only list and page shows before its content.
 */
export const QueryState = ({
  query: { isLoading, isError, isFetching, refetch },
  loading,
  error,
  isEmpty = false,
  empty,
  children,
}: QueryStateProps) => {
  if (isLoading)
    return (
      <div className="page-loading">
        <Spinner label={loading} />
      </div>
    );
  if (isError)
    return (
      <InlineError
        message={error}
        onRetry={isFetching ? undefined : () => void refetch()}
      />
    );
  if (isEmpty && empty !== undefined) return <p className="muted">{empty}</p>;
  return <>{children()}</>;
};
