/**
 * 前のページ / 次のページ under a numbered list (the public 最新情報 and the
 * admins' 会員一覧). Shown only when there is another page to go to; both
 * buttons wait while a page loads.
 */
export const Pager = ({
  page,
  hasNext,
  busy,
  onGo,
  label,
  className,
  buttonClassName,
  currentClassName,
}: {
  page: number;
  hasNext: boolean;
  busy: boolean;
  onGo: (page: number) => void;
  /** The nav's accessible name. */
  label: string;
  className: string;
  buttonClassName: string;
  currentClassName?: string;
}) => {
  if (page <= 1 && !hasNext) return null;
  return (
    <nav className={className} aria-label={label}>
      <button
        type="button"
        className={buttonClassName}
        disabled={page <= 1 || busy}
        onClick={() => onGo(page - 1)}
      >
        前のページ
      </button>
      <span className={currentClassName} aria-current="page">
        {page}ページ目
      </span>
      <button
        type="button"
        className={buttonClassName}
        disabled={!hasNext || busy}
        onClick={() => onGo(page + 1)}
      >
        次のページ
      </button>
    </nav>
  );
};
