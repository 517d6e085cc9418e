import { useEffect, useId, useRef } from 'react';
import { useModalDialog } from '@/hooks/use-modal-dialog';
import { useAppDispatch, useAppSelector } from '@/lib/store-hooks';
import { alertDismissed, selectCurrentAlert } from '@/lib/ui-slice';

/**
 * The エラー alert and the re-login alert as a native modal <dialog>: the
 * browser makes the rest of the page inert, and focus goes back to where it
 * was when the dialog closes.
 */
export const ErrorAlert = () => {
  const alert = useAppSelector(selectCurrentAlert);
  const dispatch = useAppDispatch();
  const dialogRef = useModalDialog(alert !== null);
  const okRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();

  // After the dialog opens, and again for each alert queued behind it.
  useEffect(() => {
    if (alert) okRef.current?.focus();
  }, [alert]);

  const acknowledge = () => {
    const target =
      alert?.kind === 'relogin'
        ? '/auth'
        : alert?.kind === 'error'
          ? alert.redirectTo
          : undefined;
    dispatch(alertDismissed());
    if (target) window.location.hash = `#${target}`;
  };

  return (
    <dialog
      ref={dialogRef}
      className="alert-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(e) => {
        // Escape acknowledges the alert through the same path as OK.
        e.preventDefault();
        acknowledge();
      }}
    >
      {alert && (
        <div className="alert-dialog__body">
          <h2 id={titleId} className="alert-dialog__title">
            {alert.kind === 'relogin' ? 'ログインの有効期限切れ' : 'エラー'}
          </h2>
          {alert.kind === 'error' && (
            <p className="alert-dialog__code">{alert.code}</p>
          )}
          <p id={messageId} className="alert-dialog__message">
            {alert.msg}
          </p>
          <div className="alert-dialog__actions">
            <button
              ref={okRef}
              type="button"
              className="button button--primary"
              onClick={acknowledge}
            >
              OK
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
};
