import { useEffect, useState } from 'react';

/**
 * The current time in ms, refreshed every `intervalMs`: render stays pure and
 * labels such as 予約投稿 turn into 公開中 when their time comes.
 */
export const useNow = (intervalMs = 30_000): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
};
