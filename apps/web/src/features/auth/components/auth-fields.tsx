import type { useFormState } from '../use-form-state';
import { PASSWORD_MAX, PASSWORD_MIN } from '../auth-validation';
import { PasswordField, TextField } from './form-controls';

/** What a field needs from a `useFormState` form that has (at least) the fields K. */
export type FormFields<K extends string> = Pick<
  ReturnType<typeof useFormState<K, Record<K, string>>>,
  'values' | 'errors' | 'register' | 'setValue' | 'blur'
>;

type EmailFieldProps = {
  /** The form's `useId`; the input's id is `${id}-email`. */
  id: string;
  form: FormFields<'email'>;
  /** `username` where a password manager should offer the account. */
  autoComplete: 'email' | 'username';
};

export const EmailField = ({ id, form, autoComplete }: EmailFieldProps) => (
  <TextField
    id={`${id}-email`}
    name="email"
    label="メールアドレス"
    required
    type="email"
    inputMode="email"
    autoComplete={autoComplete}
    autoCapitalize="off"
    spellCheck={false}
    value={form.values.email}
    error={form.errors.email}
    inputRef={form.register('email')}
    onChange={(e) => form.setValue('email', e.target.value)}
    onBlur={() => form.blur('email')}
  />
);

type CodeFieldProps = {
  id: string;
  form: FormFields<'code'>;
  digits: number;
};

/** The mailed code: digits only, and spaces pasted from the mail are dropped. */
export const CodeField = ({ id, form, digits }: CodeFieldProps) => (
  <TextField
    id={`${id}-code`}
    name="code"
    label={`認証コード（${digits}桁）`}
    required
    type="text"
    inputMode="numeric"
    autoComplete="one-time-code"
    pattern="[0-9]*"
    maxLength={digits}
    className="code-input"
    value={form.values.code}
    error={form.errors.code}
    inputRef={form.register('code')}
    onChange={(e) => form.setValue('code', e.target.value.replace(/\s/g, ''))}
    onBlur={() => form.blur('code')}
  />
);

type NewPasswordFieldsProps = {
  id: string;
  form: FormFields<'password' | 'passwordConfirm'>;
  /** The first field's label; the second one adds （確認）. */
  label: string;
};

/** A new password and its confirmation. */
export const NewPasswordFields = ({
  id,
  form,
  label,
}: NewPasswordFieldsProps) => (
  <>
    <PasswordField
      id={`${id}-password`}
      name="password"
      label={label}
      required
      autoComplete="new-password"
      hint={`${PASSWORD_MIN}〜${PASSWORD_MAX}文字。推測されにくいものを設定してください。`}
      value={form.values.password}
      error={form.errors.password}
      inputRef={form.register('password')}
      onChange={(e) => form.setValue('password', e.target.value)}
      onBlur={() => form.blur('password')}
    />
    <PasswordField
      id={`${id}-passwordConfirm`}
      name="passwordConfirm"
      label={`${label}（確認）`}
      required
      autoComplete="new-password"
      value={form.values.passwordConfirm}
      error={form.errors.passwordConfirm}
      inputRef={form.register('passwordConfirm')}
      onChange={(e) => form.setValue('passwordConfirm', e.target.value)}
      onBlur={() => form.blur('passwordConfirm')}
    />
  </>
);
