import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { PasswordField } from '@/components/form/field';
import { SubmitButton } from '@/components/form/form-actions';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { useLoginMutation } from '../auth-api';
import {
  LOGIN_FIELDS,
  validateLoginField,
  type LoginValues,
} from '../auth-validation';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import { EmailField } from './auth-fields';

const EMPTY: LoginValues = { email: '', password: '' };

/**
 * Mail and password → `/auth/login`. Success stores the token; the login route
 * then moves on. Failures show the エラー alert and keep what was typed.
 */
export const LoginForm = () => {
  const [login, { isLoading }] = useLoginMutation();
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: LOGIN_FIELDS,
    validate: validateLoginField,
  });
  const { values, errors } = form;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!form.validateForm()) return;
    const result = await login({
      mail: values.email.trim(),
      password: values.password,
    });
    const error = apiErrorOf(result);
    if (!error) return;
    const field =
      error.code === 'InvalidCredentials'
        ? 'password'
        : (fieldOfValidationError(error, [
            'email',
            'mail',
            'password',
          ] as const) ?? undefined);
    if (field === 'email' || field === 'mail')
      form.markServerError('email', 'メールアドレスをご確認ください。');
    else if (field === 'password')
      form.markServerError(
        'password',
        error.code === 'InvalidCredentials'
          ? 'メールアドレスまたはパスワードをご確認ください。'
          : 'パスワードをご確認ください。',
      );
  };

  return (
    <form
      className="auth-form"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-label="ログイン"
    >
      <EmailField form={form} autoComplete="username" />
      <PasswordField
        label="パスワード"
        required
        autoComplete="current-password"
        error={errors.password}
        {...form.bind('password')}
      />
      <SubmitButton busy={isLoading} busyLabel="ログイン中…" label="ログイン" />
      <ul className="auth-links">
        <li>
          <Link to="/auth/reset" className="text-link">
            パスワードをお忘れの方
          </Link>
        </li>
        <li>
          <span className="muted">はじめての方は</span>
          <Link to="/auth/register" className="text-link">
            新規会員登録
          </Link>
        </li>
      </ul>
    </form>
  );
};
