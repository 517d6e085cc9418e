import { useId, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useLoginMutation } from '../auth-api';
import {
  LOGIN_FIELDS,
  validateLoginField,
  type LoginValues,
} from '../auth-validation';
import { apiErrorOf, fieldOfValidationError } from '../server-errors';
import { useFormState } from '../use-form-state';
import { PasswordField, TextField } from './form-controls';

const EMPTY: LoginValues = { email: '', password: '' };

/**
 * Mail and password → `/auth/login`. Success stores the token; the login route
 * then moves on. Failures show the エラー alert and keep what was typed.
 */
export const LoginForm = () => {
  const id = useId();
  const [login, { isLoading }] = useLoginMutation();
  const form = useFormState(EMPTY, LOGIN_FIELDS, validateLoginField);
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
      onSubmit={submit}
      aria-label="ログイン"
    >
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
        value={values.email}
        error={errors.email}
        inputRef={form.register('email')}
        onChange={(e) => form.setValue('email', e.target.value)}
        onBlur={() => form.blur('email')}
      />
      <PasswordField
        id={`${id}-password`}
        name="password"
        label="パスワード"
        required
        autoComplete="current-password"
        value={values.password}
        error={errors.password}
        inputRef={form.register('password')}
        onChange={(e) => form.setValue('password', e.target.value)}
        onBlur={() => form.blur('password')}
      />
      <button
        type="submit"
        className="button button--primary button--wide"
        disabled={isLoading}
      >
        {isLoading ? 'ログイン中…' : 'ログイン'}
      </button>
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
