import { useEffect, useState } from 'react';
import type { Schedule } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { TextAreaField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { formatDate } from '@/lib/format';
import {
  CALL_OFF_FIELDS,
  REASON_MAX,
  validateCallOff,
} from '../call-off-validation';
import { useCallOffScheduleMutation } from '../schedule-api';

type CallOffDialogProps = {
  /** The lesson being called off; null while the dialog is closed. */
  schedule: Schedule | null;
  onClose: () => void;
  onDone: (calledOff: Schedule) => void;
};

const EMPTY = { reason: '' };

/**
 * 中止する: the pro (or an admin) gives the reason the participants are
 * mailed and see on their card. A failure is explained in the dialog and the
 * reason typed so far stays.
 */
export const CallOffDialog = ({
  schedule,
  onClose,
  onDone,
}: CallOffDialogProps) => {
  const [callOff, { isLoading }] = useCallOffScheduleMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: CALL_OFF_FIELDS,
    validate: validateCallOff,
  });

  const { focusField } = form;
  const open = schedule !== null;
  // The dialog has opened (its effect runs before this one): start at the reason.
  useEffect(() => {
    if (open) focusField('reason');
  }, [open, focusField]);

  const close = () => {
    form.reset(EMPTY);
    setFormError(null);
    onClose();
  };

  const send = async () => {
    if (!schedule) return;
    setFormError(null);
    if (!form.validateForm()) return;
    const result = await callOff({
      id: schedule.id,
      reason: form.values.reason.trim(),
    });
    if (result.data) {
      form.reset(EMPTY);
      onDone(result.data);
      return;
    }
    const error = apiErrorOf(result);
    if (fieldOfValidationError(error, CALL_OFF_FIELDS)) {
      form.markServerError('reason', '中止の理由をご確認ください。');
      return;
    }
    setFormError(
      error?.code === 'Conflict'
        ? 'このレッスンはすでに開始したか、中止・終了しているため中止できません。'
        : (error?.msg ??
            '中止できませんでした。時間をおいて再度お試しください。'),
    );
  };

  return (
    <ConfirmDialog
      open={open}
      title="レッスンの中止"
      message={
        schedule
          ? `${formatDate(schedule.date)} ${schedule.startTime}〜 ${schedule.place}のレッスンを中止します。参加者には中止の理由がメールで届き、カードにも表示されます。`
          : ''
      }
      confirmLabel={isLoading ? '送信中…' : '中止する'}
      cancelLabel="戻る"
      busy={isLoading}
      onConfirm={() => void send()}
      onCancel={close}
    >
      <FormErrorSummary errorCount={0} serverError={formError} />
      <TextAreaField
        label="中止の理由"
        required
        max={REASON_MAX}
        rows={3}
        placeholder="雨天のため"
        hint="参加者にそのまま表示されます。"
        error={form.errors.reason}
        {...form.bind('reason')}
      />
    </ConfirmDialog>
  );
};
