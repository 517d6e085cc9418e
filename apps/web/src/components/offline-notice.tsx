/** Why the app cannot reach the server just now. */
export type ConnectionProblem = 'offline' | 'unavailable';

export const CONNECTION_MESSAGES: Record<ConnectionProblem, string> = {
  offline: 'オフラインです。接続が戻ると自動で再接続します。',
  unavailable: 'サーバーに接続できません。しばらくすると自動で再接続します。',
};

type OfflineNoticeProps = {
  problem: ConnectionProblem | null;
  /** Offered while a stored login waits to be renewed and the browser is online. */
  onRetry?: () => void;
};

/**
 * The strip under the header on every screen while the app is offline or the
 * server cannot be reached. The status region stays in the document (empty
 * while all is well) so screen readers announce the message when it appears.
 */
export const OfflineNotice = ({ problem, onRetry }: OfflineNoticeProps) => (
  <div
    className="offline-notice"
    data-problem={problem ?? undefined}
    data-testid="offline-notice"
  >
    <div className="container offline-notice__inner">
      <div role="status" className="offline-notice__status">
        {problem && (
          <>
            <svg
              className="offline-notice__icon"
              viewBox="0 0 24 24"
              width={20}
              height={20}
              aria-hidden="true"
              focusable="false"
            >
              {problem === 'offline' ? (
                <path d="M2 8.8a15 15 0 0 1 20 0M5.5 12.3a10 10 0 0 1 13 0M9 15.8a5 5 0 0 1 6 0M12 19.5h.01M3 3l18 18" />
              ) : (
                <path d="M12 4 2.5 20h19L12 4Zm0 6v4.5m0 3h.01" />
              )}
            </svg>
            <span className="offline-notice__text">
              {CONNECTION_MESSAGES[problem]}
            </span>
          </>
        )}
      </div>
      {problem && onRetry && (
        <button
          type="button"
          className="offline-notice__retry"
          onClick={onRetry}
        >
          今すぐ再接続
        </button>
      )}
    </div>
  </div>
);
