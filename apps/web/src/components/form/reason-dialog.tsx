import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { TextAreaField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useValidatedForm } from '@/hooks/use-validated-form';
import type { ApiError } from '@/lib/api-error';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';

/** The one text an action asks for (a reason, what was done). */
export type ReasonField = {
  label: string;
  /** The input's name in the API, matched against a ValidationError. */
  serverName: string;
  max: number;
  placeholder?: string;
  hint?: string;
  /** The Japanese message for a value that cannot be sent, or undefined. */
  validate: (value: string) => string | undefined;
  /** Shown on the field when the server refuses the value. */
  refused: string;
};

type ReasonDialogProps<S, T> = {
  /** What the action is about (the lesson, the member, the report); null while the dialog is closed. */
  target: S | null;
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  /** What to ask; none when the action needs no text (lifting a suspension). */
  field?: ReasonField;
  /** Sends the trimmed text ('' without a field) about the target: an RTK Query trigger. */
  send: (target: S, text: string) => Promise<{ data?: T; error?: unknown }>;
  /** Why it failed, in Japanese, for the error codes this action can meet (Conflict, NotFound…). */
  failures?: Partial<Record<ApiError['code'], string>>;
  /** Why it failed when the server did not refuse the field and gave no message of its own. */
  failure: string;
  /** After a success, once `onClose` has been called: every caller closes the dialog then. */
  onDone: (result: T) => void;
  onClose: () => void;
};

const FIELDS = ['text'] as const;
const EMPTY = { text: '' };

/**
 * An action confirmed with one required text: 中止の理由, 利用停止の理由,
 * 対応内容. The field has the focus when the dialog opens; a failure is
 * explained in the dialog and what was typed stays until it is closed.
 */
export const ReasonDialog = <S, T>({
  target,
  title,
  message,
  confirmLabel,
  danger = true,
  field,
  send,
  failures,
  failure,
  onDone,
  onClose,
}: ReasonDialogProps<S, T>) => {
  const open = target !== null;
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: FIELDS,
    validate: (_f, values) => field?.validate(values.text),
  });

  const { focusField } = form;
  const asks = field !== undefined;
  // The dialog has opened (its effect runs before this one): start at the text.
  useEffect(() => {
    if (open && asks) focusField('text');
  }, [open, asks, focusField]);

  const close = () => {
    form.reset(EMPTY);
    setFormError(null);
    onClose();
  };

  const confirm = async () => {
    setFormError(null);
    if (target === null || (field && !form.validateForm())) return;
    setBusy(true);
    const result = await send(target, field ? form.values.text.trim() : '');
    setBusy(false);
    if (result.data !== undefined) {
      close();
      onDone(result.data);
      return;
    }
    const error = apiErrorOf(result);
    if (field && fieldOfValidationError(error, [field.serverName])) {
      form.markServerError('text', field.refused);
      return;
    }
    setFormError((error && failures?.[error.code]) ?? error?.msg ?? failure);
  };

  return (
    <ConfirmDialog
      open={open}
      title={title}
      message={message}
      confirmLabel={busy ? '送信中…' : confirmLabel}
      cancelLabel="戻る"
      danger={danger}
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={close}
    >
      <FormErrorSummary errorCount={0} serverError={formError} />
      {field && (
        <TextAreaField
          label={field.label}
          required
          max={field.max}
          rows={3}
          placeholder={field.placeholder}
          hint={field.hint}
          error={form.errors.text}
          {...form.bind('text')}
        />
      )}
    </ConfirmDialog>
  );
};
