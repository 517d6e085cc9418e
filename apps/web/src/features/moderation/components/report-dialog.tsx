import { useEffect, useState } from 'react';
import type { ReportCreateInput } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SelectField, TextAreaField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { apiErrorOf } from '@/lib/server-errors';
import { useCreateReportMutation } from '../moderation-api';
import {
  DETAILS_MAX,
  reasonOf,
  REPORT_FIELDS,
  REPORT_KINDS,
  validateReport,
} from '../report-validation';

export type ReportTarget = Pick<ReportCreateInput, 'targetType' | 'targetId'>;

type ReportDialogProps = {
  /** What is reported; null while the dialog is closed. */
  target: ReportTarget | null;
  /** e.g. 「山田 太郎さんのプロフィール」. */
  targetLabel: string;
  onClose: () => void;
  onDone: () => void;
};

const EMPTY = { kind: '', details: '' };

/**
 * 通報する: a reason from the list and, optionally (required for その他),
 * details. Sent as one `reason`; the company reads it, the reported member
 * is not told who reported.
 */
export const ReportDialog = ({
  target,
  targetLabel,
  onClose,
  onDone,
}: ReportDialogProps) => {
  const [report, { isLoading }] = useCreateReportMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: REPORT_FIELDS,
    validate: validateReport,
  });
  const open = target !== null;
  const { focusField } = form;
  // Opened (a new dialog for each opening, by its key): start at the reason.
  useEffect(() => {
    if (open) focusField('kind');
  }, [open, focusField]);

  const send = async () => {
    if (!target) return;
    setFormError(null);
    if (!form.validateForm()) return;
    const result = await report({ ...target, reason: reasonOf(form.values) });
    if (result.data) {
      onDone();
      return;
    }
    const error = apiErrorOf(result);
    setFormError(
      error?.code === 'TooManyRequests'
        ? '短時間に多くの通報が送られました。時間をおいて再度お試しください。'
        : (error?.msg ??
            '送信できませんでした。時間をおいて再度お試しください。'),
    );
  };

  return (
    <ConfirmDialog
      open={open}
      title="通報する"
      message={`${targetLabel}を運営に通報します。通報したことは相手に通知されません。`}
      confirmLabel={isLoading ? '送信中…' : '通報する'}
      busy={isLoading}
      onConfirm={() => void send()}
      onCancel={onClose}
    >
      <FormErrorSummary errorCount={0} serverError={formError} />
      <SelectField
        label="通報の理由"
        required
        options={REPORT_KINDS}
        placeholder="選択してください"
        error={form.errors.kind}
        {...form.bind('kind')}
      />
      <TextAreaField
        label="詳しい内容"
        required={form.values.kind === 'その他'}
        max={DETAILS_MAX}
        rows={3}
        hint="どのような点が問題か、できるだけ具体的にお書きください。"
        error={form.errors.details}
        {...form.bind('details')}
      />
    </ConfirmDialog>
  );
};
