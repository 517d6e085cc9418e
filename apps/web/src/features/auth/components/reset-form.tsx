import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { SubmitButton } from '@/components/form/form-actions';
import { useValidatedForm } from '@/hooks/use-validated-form';
import {
  useSendResetCodeMutation,
  useUpdatePasswordMutation,
} from '../auth-api';
import {
  RESET_CODE_DIGITS,
  RESET_FIELDS,
  validateResetField,
  type ResetValues,
} from '../auth-validation';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import { NewPasswordFields } from './auth-fields';
import { CodeStep, MailCodeSteps, type Step } from './step-form';
import { useMailStep } from './use-mail-step';
import { useStepFocus } from './use-step-focus';

const STEPS = ['メールアドレス', '新しいパスワード', '完了'] as const;

const EMPTY: ResetValues = { code: '', password: '', passwordConfirm: '' };

/**
 * Password reset: an 8-digit code to the address (`/auth/code/reset`), then the
 * code with the new password (`/auth/update`), which ends every login.
 */
export const ResetForm = () => {
  const id = useId();
  const [step, setStep] = useState<Step>(1);
  const [sendResetCode, { isLoading: sending }] = useSendResetCodeMutation();
  const [updatePassword, { isLoading: updating }] = useUpdatePasswordMutation();
  const { mail, email, submitMail } = useMailStep(sendResetCode, () =>
    setStep(2),
  );
  const reset = useValidatedForm({
    initialValues: EMPTY,
    fields: RESET_FIELDS,
    validate: validateResetField,
  });
  const doneRef = useRef<HTMLHeadingElement>(null);

  useStepFocus(step, (s) => {
    if (s === 1) mail.focusField('email');
    else if (s === 2) reset.focusField('code');
    else doneRef.current?.focus();
  });

  const submitReset = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!reset.validateForm()) return;
    const result = await updatePassword({
      email,
      code: reset.values.code.trim(),
      password: reset.values.password,
    });
    const error = apiErrorOf(result);
    if (!error) {
      setStep(3);
      return;
    }
    const field = fieldOfValidationError(error, [
      'email',
      ...RESET_FIELDS,
    ] as const);
    if (error.code === 'InvalidCode' || field === 'code')
      reset.markServerError(
        'code',
        '認証コードが正しくないか、有効期限が切れています。',
      );
    else if (field === 'password')
      reset.markServerError(
        'password',
        'このパスワードは使用できません。推測されにくいパスワードを入力してください。',
      );
    else if (field === 'email') {
      mail.markServerError('email', 'メールアドレスをご確認ください。');
      setStep(1);
    }
  };

  return (
    <MailCodeSteps
      steps={STEPS}
      step={step}
      mailStep={{
        id,
        title: 'メールアドレスの入力',
        lead: 'ご登録のメールアドレスに、8桁の認証コードをお送りします。',
        onSubmit: submitMail,
        mail,
        autoComplete: 'username',
        sending,
        children: (
          <p className="auth-links">
            <Link to="/auth" className="text-link">
              ログイン画面へ戻る
            </Link>
          </p>
        ),
      }}
    >
      {step === 2 && (
        <CodeStep
          id={id}
          title="新しいパスワードの設定"
          email={email}
          instructions="メールに記載の8桁の数字と、新しいパスワードを入力してください（有効期限10分）。"
          code={reset}
          digits={RESET_CODE_DIGITS}
          onSubmit={submitReset}
          sending={sending}
          onResend={() => void sendResetCode({ email })}
          onChangeMail={() => setStep(1)}
        >
          <NewPasswordFields form={reset} label="新しいパスワード" />
          <SubmitButton
            busy={updating}
            busyLabel="変更中…"
            label="パスワードを変更する"
          />
        </CodeStep>
      )}

      {step === 3 && (
        <div className="auth-done" role="status">
          <h2 ref={doneRef} tabIndex={-1} className="auth-form__title">
            パスワードを変更しました
          </h2>
          <p>
            新しいパスワードでログインしてください。安全のため、これまでログインしていたすべての端末からログアウトしました。
          </p>
          <Link to="/auth" className="button button--primary button--wide">
            ログイン画面へ
          </Link>
        </div>
      )}
    </MailCodeSteps>
  );
};
