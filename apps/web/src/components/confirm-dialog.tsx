import { useId, type FormEvent, type ReactNode } from 'react';
import { useModalDialog } from '@/hooks/use-modal-dialog';
import { CancelButton } from './form/form-actions';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  /** The question; `children` can add more (e.g. a password field). */
  message?: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Styles the confirm button as destructive (the default). */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * A modal confirmation for irreversible actions on the native <dialog>: the
 * page behind is inert, Escape cancels, focus returns to where it was.
 */
export const ConfirmDialog = ({
  open,
  title,
  message,
  children,
  confirmLabel,
  cancelLabel = 'キャンセル',
  danger = true,
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) => {
  const ref = useModalDialog(open);
  const titleId = useId();
  const bodyId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy) onConfirm();
  };

  return (
    <dialog
      ref={ref}
      className="alert-dialog confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      {open && (
        <form className="alert-dialog__body" onSubmit={submit} noValidate>
          <h2 id={titleId} className="confirm-dialog__title">
            {title}
          </h2>
          <div id={bodyId} className="confirm-dialog__message">
            {typeof message === 'string' ? <p>{message}</p> : message}
            {children}
          </div>
          <div className="confirm-dialog__actions">
            <CancelButton label={cancelLabel} busy={busy} onCancel={onCancel} />
            <button
              type="submit"
              className={`button ${danger ? 'button--danger' : 'button--primary'}`}
              disabled={busy}
            >
              {confirmLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
};

type ConfirmDeleteDialogProps = {
  title: string;
  /** What is about to go; the dialog is open while there is one. */
  name: string | undefined;
  /** After 「…」を削除しますか？: what else goes with it. */
  consequence: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** 削除する for a named item of an admin list. */
export const ConfirmDeleteDialog = ({
  name,
  consequence,
  ...props
}: ConfirmDeleteDialogProps) => (
  <ConfirmDialog
    {...props}
    open={name !== undefined}
    message={
      name === undefined ? '' : `「${name}」を削除しますか？${consequence}`
    }
    confirmLabel="削除する"
    danger
  />
);
