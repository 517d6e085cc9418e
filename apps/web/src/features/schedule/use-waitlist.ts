import type { Schedule } from '@proam/contract';
import { formatDate } from '@/lib/format';
import {
  useJoinWaitlistMutation,
  useLeaveWaitlistMutation,
} from './schedule-api';

/**
 * Joining and leaving a full lesson's waitlist. `onChanged` gets the lesson
 * and the sentence to announce; failures (e.g. a place freed meanwhile: the
 * lesson is open again) show the エラー alert and the list is fetched again.
 */
export const useWaitlist = (
  onChanged: (s: Schedule, message: string) => void,
) => {
  const [join, joinState] = useJoinWaitlistMutation();
  const [leave, leaveState] = useLeaveWaitlistMutation();
  const lesson = (s: Schedule) =>
    `${formatDate(s.date)} ${s.startTime}〜のレッスン`;

  const onJoin = async (s: Schedule) => {
    const result = await join({ id: s.id });
    if (result.data)
      onChanged(
        s,
        `${lesson(s)}のキャンセル待ちに登録しました（${result.data.position}番目）。空きが出たら順番に予約され、メールでお知らせします。`,
      );
  };

  const onLeave = async (s: Schedule) => {
    const result = await leave({ id: s.id });
    if (result.data) onChanged(s, `${lesson(s)}のキャンセル待ちをやめました。`);
  };

  return {
    join: (s: Schedule) => void onJoin(s),
    leave: (s: Schedule) => void onLeave(s),
    busy: joinState.isLoading || leaveState.isLoading,
  };
};
