import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  useSendResetCodeMutation,
  useUpdatePasswordMutation,
} from '../auth-api';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  RESET_CODE_DIGITS,
  RESET_FIELDS,
  validateEmail,
  validateResetField,
  type ResetValues,
} from '../auth-validation';
import { apiErrorOf, fieldOfValidationError } from '../server-errors';
import { useFormState } from '../use-form-state';
import { PasswordField, TextField } from './form-controls';
import { StepIndicator } from './step-indicator';

type Step = 1 | 2 | 3;
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
  const mail = useFormState<'email', { email: string }>(
    { email: '' },
    ['email'],
    (_, v) => validateEmail(v.email),
  );
  const reset = useFormState(EMPTY, RESET_FIELDS, validateResetField);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (step === 1) mail.focusField('email');
    else if (step === 2) reset.focusField('code');
    else doneRef.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step]);

  const email = mail.values.email.trim();

  const submitMail = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!mail.validateForm()) return;
    const result = await sendResetCode({ email });
    const error = apiErrorOf(result);
    if (error) {
      if (fieldOfValidationError(error, ['email'] as const))
        mail.markServerError('email', 'メールアドレスをご確認ください。');
      return;
    }
    setStep(2);
  };

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
    <div className="auth-steps">
      <StepIndicator steps={STEPS} current={step} />

      {step === 1 && (
        <form
          className="auth-form"
          noValidate
          onSubmit={submitMail}
          aria-labelledby={`${id}-s1`}
        >
          <h2 id={`${id}-s1`} className="auth-form__title">
            メールアドレスの入力
          </h2>
          <p className="auth-form__lead">
            ご登録のメールアドレスに、8桁の認証コードをお送りします。
          </p>
          <TextField
            id={`${id}-email`}
            name="email"
            label="メールアドレス"
            required
            type="email"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            value={mail.values.email}
            error={mail.errors.email}
            inputRef={mail.register('email')}
            onChange={(e) => mail.setValue('email', e.target.value)}
            onBlur={() => mail.blur('email')}
          />
          <button
            type="submit"
            className="button button--primary button--wide"
            disabled={sending}
          >
            {sending ? '送信中…' : '認証コードを送信'}
          </button>
          <p className="auth-links">
            <Link to="/auth" className="text-link">
              ログイン画面へ戻る
            </Link>
          </p>
        </form>
      )}

      {step === 2 && (
        <form
          className="auth-form"
          noValidate
          onSubmit={submitReset}
          aria-labelledby={`${id}-s2`}
        >
          <h2 id={`${id}-s2`} className="auth-form__title">
            新しいパスワードの設定
          </h2>
          <p className="auth-form__lead">
            <strong className="auth-form__email">{email}</strong>
            に認証コードをお送りしました。メールに記載の8桁の数字と、新しいパスワードを入力してください（有効期限10分）。
          </p>
          <TextField
            id={`${id}-code`}
            name="code"
            label="認証コード（8桁）"
            required
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={RESET_CODE_DIGITS}
            className="code-input"
            value={reset.values.code}
            error={reset.errors.code}
            inputRef={reset.register('code')}
            onChange={(e) =>
              reset.setValue('code', e.target.value.replace(/\s/g, ''))
            }
            onBlur={() => reset.blur('code')}
          />
          <PasswordField
            id={`${id}-password`}
            name="password"
            label="新しいパスワード"
            required
            autoComplete="new-password"
            hint={`${PASSWORD_MIN}〜${PASSWORD_MAX}文字。推測されにくいものを設定してください。`}
            value={reset.values.password}
            error={reset.errors.password}
            inputRef={reset.register('password')}
            onChange={(e) => reset.setValue('password', e.target.value)}
            onBlur={() => reset.blur('password')}
          />
          <PasswordField
            id={`${id}-passwordConfirm`}
            name="passwordConfirm"
            label="新しいパスワード（確認）"
            required
            autoComplete="new-password"
            value={reset.values.passwordConfirm}
            error={reset.errors.passwordConfirm}
            inputRef={reset.register('passwordConfirm')}
            onChange={(e) => reset.setValue('passwordConfirm', e.target.value)}
            onBlur={() => reset.blur('passwordConfirm')}
          />
          <button
            type="submit"
            className="button button--primary button--wide"
            disabled={updating}
          >
            {updating ? '変更中…' : 'パスワードを変更する'}
          </button>
          <div className="auth-links">
            <button
              type="button"
              className="link-button"
              onClick={() => void sendResetCode({ email })}
              disabled={sending}
            >
              認証コードを再送信する
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => setStep(1)}
            >
              メールアドレスを変更する
            </button>
          </div>
        </form>
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
    </div>
  );
};
