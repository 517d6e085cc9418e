import type { Schedule } from '@proam/contract';
import { CANCEL_CLOSED_REASON, formatCancelDeadline } from '../booking-rules';

type CancelDeadlineProps = {
  schedule: Schedule;
  /** Cancelling is still possible (the deadline has not passed). */
  open: boolean;
  /** The reason's id, so the focus can move there after a CancelClosed answer. */
  noteId: string;
};

/** 「キャンセル期限：11月28日(土) 23:59」 on a reservation, and after it why it cannot be cancelled. */
export const CancelDeadline = ({
  schedule,
  open,
  noteId,
}: CancelDeadlineProps) => (
  <div className="cancel-deadline">
    <p className="cancel-deadline__date">
      キャンセル期限：{formatCancelDeadline(schedule.date)}
    </p>
    {!open && (
      <p id={noteId} tabIndex={-1} className="cancel-deadline__closed">
        {CANCEL_CLOSED_REASON}
      </p>
    )}
  </div>
);
