import { mayCancelOn, type Schedule } from '@proam/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useAppDispatch } from '@/lib/store-hooks';
import { apiErrorOf } from '@/lib/server-errors';
import { formatDate } from '@/lib/format';
import { errorAlertRaised } from '@/lib/ui-slice';
import { useCancelReservationMutation } from './schedule-api';

/**
 * An amateur cancelling a reservation: the confirmation, and the deadline.
 * The キャンセル button shows only while the contract's `mayCancelOn` holds;
 * a CancelClosed answer (the day turned while the card was open) closes the
 * lesson's cancelling the same way, and the focus moves to the reason.
 */
export const useCancelReservation = (onCancelled: (s: Schedule) => void) => {
  const dispatch = useAppDispatch();
  const [cancel, { isLoading }] = useCancelReservationMutation();
  const [pending, setPending] = useState<Schedule | null>(null);
  const [closedIds, setClosedIds] = useState<ReadonlySet<string>>(
    () => new Set(),
  );
  const baseId = useId();
  const focusAfterClose = useRef<string | null>(null);

  const noteIdOf = (s: Schedule) => `${baseId}-cancel-note-${s.id}`;

  // Runs after the dialog's own effect has closed it (children's effects run
  // first): the page is no longer inert, so the reason can take the focus.
  useEffect(() => {
    if (pending || !focusAfterClose.current) return;
    document.getElementById(focusAfterClose.current)?.focus();
    focusAfterClose.current = null;
  }, [pending, closedIds]);

  const mayCancel = (s: Schedule, today: string) =>
    mayCancelOn(s.date, today) && !closedIds.has(s.id);

  const confirm = async () => {
    if (!pending) return;
    const s = pending;
    const result = await cancel({ id: s.id });
    const error = apiErrorOf(result);
    if (error?.code === 'CancelClosed') {
      setClosedIds((prev) => new Set(prev).add(s.id));
      focusAfterClose.current = noteIdOf(s);
    } else if (error) {
      dispatch(errorAlertRaised(error));
    } else {
      onCancelled(s);
    }
    setPending(null);
  };

  const paid = pending?.myReservation?.paymentStatus === 'paid';
  /** Props for the ConfirmDialog of the page. */
  const dialog = {
    open: pending !== null,
    title: '予約のキャンセル',
    message: pending
      ? `${formatDate(pending.date)} ${pending.startTime}〜 ${pending.place}の予約をキャンセルします。${paid ? 'お支払い済みの料金は全額返金されます。' : ''}よろしいですか？`
      : '',
    confirmLabel: '予約をキャンセル',
    cancelLabel: '戻る',
    busy: isLoading,
    onConfirm: () => void confirm(),
    onCancel: () => setPending(null),
  };

  return { ask: setPending, mayCancel, noteIdOf, dialog, busy: isLoading };
};
