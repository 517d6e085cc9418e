import { useEffect, useState } from 'react';
import type { User } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { TextAreaField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import { useSuspendMemberMutation } from '../admin-api';
import {
  SUSPEND_FIELDS,
  SUSPEND_REASON_MAX,
  validateSuspend,
} from '../admin-validation';

type SuspendDialogProps = {
  /** The member to suspend or to lift the suspension of; null while closed. */
  member: User | null;
  onClose: () => void;
  onDone: (changed: User) => void;
};

const EMPTY = { reason: '' };

/**
 * 利用停止 with a required reason (kept in the audit log), or 停止を解除. A
 * failure is explained in the dialog, and the reason typed so far stays.
 */
export const SuspendDialog = ({
  member,
  onClose,
  onDone,
}: SuspendDialogProps) => {
  const [suspend, { isLoading }] = useSuspendMemberMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: SUSPEND_FIELDS,
    validate: validateSuspend,
  });
  const lifting = member?.suspended === true;

  const { focusField } = form;
  const open = member !== null;
  useEffect(() => {
    if (open && !lifting) focusField('reason');
  }, [open, lifting, focusField]);

  const close = () => {
    form.reset(EMPTY);
    setFormError(null);
    onClose();
  };

  const send = async () => {
    if (!member) return;
    setFormError(null);
    if (!lifting && !form.validateForm()) return;
    const result = await suspend(
      lifting
        ? { id: member.id, suspended: false }
        : { id: member.id, suspended: true, reason: form.values.reason.trim() },
    );
    if (result.data) {
      form.reset(EMPTY);
      onDone(result.data);
      return;
    }
    const error = apiErrorOf(result);
    if (!lifting && fieldOfValidationError(error, SUSPEND_FIELDS)) {
      form.markServerError('reason', '利用停止の理由をご確認ください。');
      return;
    }
    setFormError(
      error?.code === 'Conflict'
        ? 'ご自身のアカウントは利用停止にできません。'
        : error?.code === 'NotFound'
          ? 'この会員は見つかりませんでした（退会した可能性があります）。'
          : (error?.msg ??
            '変更できませんでした。通信状況をご確認のうえ、もう一度お試しください。'),
    );
  };

  const name = member ? `${member.userName}（${member.email ?? ''}）` : '';

  return (
    <ConfirmDialog
      open={open}
      title={lifting ? '利用停止の解除' : '会員の利用停止'}
      message={
        lifting
          ? `${name}の利用停止を解除します。ログインできるようになり、プロフィールが再び表示されます。`
          : `${name}を利用停止にします。すぐにログインできなくなり、すべての端末でログアウトされ、プロフィールは他の会員に表示されなくなります。プロの場合、今後のレッスンは中止になります。`
      }
      confirmLabel={
        isLoading ? '送信中…' : lifting ? '停止を解除する' : '利用停止にする'
      }
      cancelLabel="戻る"
      danger={!lifting}
      busy={isLoading}
      onConfirm={() => void send()}
      onCancel={close}
    >
      <FormErrorSummary errorCount={0} serverError={formError} />
      {!lifting && (
        <TextAreaField
          label="利用停止の理由"
          required
          max={SUSPEND_REASON_MAX}
          rows={3}
          placeholder="利用規約第○条に違反する行為のため"
          hint="会員一覧と操作履歴に記録されます。"
          error={form.errors.reason}
          {...form.bind('reason')}
        />
      )}
    </ConfirmDialog>
  );
};
