import { AlertIcon } from './icons';

type InlineErrorProps = { message?: string; onRetry?: () => void };

export const InlineError = ({
  message = '情報を読み込めませんでした。',
  onRetry,
}: InlineErrorProps) => (
  <div className="inline-error" role="alert">
    <AlertIcon width={22} height={22} />
    <p className="inline-error__text">{message}</p>
    {onRetry && (
      <button
        type="button"
        className="button button--outline"
        onClick={onRetry}
      >
        再読み込み
      </button>
    )}
  </div>
);
