import { useEffect, useRef } from 'react';
import { useNow } from '@/hooks/use-now';
import { formatHoldRemaining, holdRemainingMs } from '../payment-api';

/** Minutes left at which screen readers hear how long remains. */
const ANNOUNCE_AT_MINUTES = [1, 5, 10] as const;

type HoldCountdownProps = {
  holdExpiresAt: string;
  /** Called once when the time is up. */
  onExpired: () => void;
};

/**
 * 「お支払い期限まで 14:59」, every second. The clock is a `timer` (not read
 * out on each tick); a polite live region says when 10, 5 and 1 minutes are
 * left, so a screen reader user knows without being talked over.
 */
export const HoldCountdown = ({
  holdExpiresAt,
  onExpired,
}: HoldCountdownProps) => {
  const now = useNow(1000);
  const remaining = holdRemainingMs(holdExpiresAt, now);
  const expired = remaining <= 0;
  const reported = useRef(false);
  // The latest callback, so a parent's new function does not restart anything.
  const onExpiredRef = useRef(onExpired);
  useEffect(() => {
    onExpiredRef.current = onExpired;
  });
  useEffect(() => {
    if (!expired || reported.current) return;
    reported.current = true;
    onExpiredRef.current();
  }, [expired]);

  const minutes = ANNOUNCE_AT_MINUTES.find((m) => remaining <= m * 60_000);
  const summary =
    minutes !== undefined && !expired
      ? `お支払い期限まで残り${minutes}分を切りました。`
      : '';
  return (
    <div
      className={`hold-countdown${remaining <= 60_000 ? ' hold-countdown--urgent' : ''}`}
    >
      <p role="timer" className="hold-countdown__clock">
        お支払い期限まで{' '}
        <span className="hold-countdown__time">
          {formatHoldRemaining(remaining)}
        </span>
      </p>
      <p className="hold-countdown__note">
        期限までにお支払いが完了しない場合、確保した席は自動的に解放されます。
      </p>
      <p className="visually-hidden" aria-live="polite">
        {summary}
      </p>
    </div>
  );
};
