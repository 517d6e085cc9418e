import type { Ref } from 'react';
import type { Schedule } from '@proam/contract';
import { formatDate } from '@/lib/format';

type WaitlistActionsProps = {
  schedule: Schedule;
  busy: boolean;
  onJoin: (s: Schedule) => void;
  onLeave: (s: Schedule) => void;
  /** Given to the first control, so the focus can follow a change. */
  focusRef?: Ref<HTMLButtonElement>;
};

/**
 * キャンセル待ち on a full lesson: 「キャンセル待ち 2番目」 with a way to leave
 * the line, or a button to join it.
 */
export const WaitlistActions = ({
  schedule: s,
  busy,
  onJoin,
  onLeave,
  focusRef,
}: WaitlistActionsProps) => {
  const lesson = `${formatDate(s.date)} ${s.startTime}〜のレッスン`;
  const waiting = s.waitlistPosition !== undefined;
  const label = waiting ? 'キャンセル待ちをやめる' : 'キャンセル待ちに登録';
  const button = (
    <button
      ref={focusRef}
      type="button"
      className={`button ${waiting ? 'button--outline' : 'button--accent'}`}
      disabled={busy}
      onClick={() => (waiting ? onLeave : onJoin)(s)}
      aria-label={`${lesson}の${label}`}
    >
      {label}
    </button>
  );
  return waiting ? (
    <>
      <span className="waitlist-mark">
        キャンセル待ち {s.waitlistPosition}番目
      </span>
      {button}
    </>
  ) : (
    button
  );
};
