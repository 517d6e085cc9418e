import { Link } from 'react-router';
import type { Schedule } from '@proam/contract';
import { formatDate } from '@/lib/format';
import { AddToCalendarButton } from './add-to-calendar-button';
import { CancelDeadline } from './cancel-deadline';
import {
  isPaymentPending,
  PaymentMark,
  PayLink,
  PendingPaymentNote,
} from './payment-state';

// The card parts of a lesson the member has reserved, the same in their own
// 予約中のレッスン and on a pro's list of lessons.

type FocusRef = (el: HTMLElement | null) => void;

/** The lesson's チャット: the card's main button, or outlined; `focusRef` lets the focus follow a change. */
export const ChatLink = ({
  schedule: s,
  primary = false,
  focusRef,
}: {
  schedule: Schedule;
  primary?: boolean;
  focusRef?: FocusRef;
}) => (
  <Link
    ref={focusRef}
    to={`/tabs/chat/${s.id}`}
    className={`button ${primary ? 'button--primary' : 'button--outline'}`}
    aria-label={`${formatDate(s.date)}のレッスンのチャット`}
  >
    チャット
  </Link>
);

type ReservedNotesProps = {
  schedule: Schedule;
  /** Cancelling is still possible. */
  mayCancel: boolean;
  /** The id of the reason it no longer is (see useCancelReservation). */
  noteId: string;
};

/** Under a reservation: the payment it still waits for, and キャンセル期限. */
export const ReservedNotes = ({
  schedule: s,
  mayCancel,
  noteId,
}: ReservedNotesProps) => (
  <>
    {isPaymentPending(s) && <PendingPaymentNote schedule={s} />}
    <CancelDeadline schedule={s} open={mayCancel} noteId={noteId} />
  </>
);

type ReservedActionsProps = {
  schedule: Schedule;
  proName: string;
  /** キャンセル is shown (the deadline has not passed). */
  mayCancel: boolean;
  /** A call is under way: キャンセル is disabled. */
  busy: boolean;
  /** キャンセル pressed: ask for confirmation. */
  onCancel: (s: Schedule) => void;
  /** Called off: nothing to pay, no calendar file and nothing to cancel. */
  calledOff?: boolean;
  /** 予約済み first, on a list where the other lessons are not reserved. */
  reservedMark?: boolean;
  chatPrimary?: boolean;
  /** Given to the first control, so the focus can follow a change. */
  focusRef?: FocusRef;
};

/**
 * A reservation's buttons: お支払いへ while it is held for payment, else the
 * payment mark, the chat and the calendar file; then キャンセル.
 */
export const ReservedActions = ({
  schedule: s,
  proName,
  mayCancel,
  busy,
  onCancel,
  calledOff = false,
  reservedMark = false,
  chatPrimary = false,
  focusRef,
}: ReservedActionsProps) => {
  const cancelButton = !calledOff && mayCancel && (
    <button
      type="button"
      className="button button--outline"
      disabled={busy}
      onClick={() => onCancel(s)}
      aria-label={`${formatDate(s.date)}の予約をキャンセル`}
    >
      キャンセル
    </button>
  );
  // Held for payment: not a participant yet, so no chat or calendar file.
  if (isPaymentPending(s))
    return (
      <>
        {!calledOff && <PayLink schedule={s} focusRef={focusRef} />}
        {cancelButton}
      </>
    );
  return (
    <>
      {reservedMark && <span className="reserved-mark">予約済み</span>}
      <PaymentMark schedule={s} />
      <ChatLink schedule={s} primary={chatPrimary} focusRef={focusRef} />
      {!calledOff && <AddToCalendarButton schedule={s} proName={proName} />}
      {cancelButton}
    </>
  );
};
