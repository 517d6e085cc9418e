import { PasswordField, TextField } from '@/components/form/field';
import type { FormFields } from '@/hooks/use-validated-form';
import { PASSWORD_MAX, PASSWORD_MIN } from '../auth-validation';

type EmailFieldProps = {
  form: FormFields<'email'>;
  /** `username` where a password manager should offer the account. */
  autoComplete: 'email' | 'username';
};

export const EmailField = ({ form, autoComplete }: EmailFieldProps) => (
  <TextField
    label="メールアドレス"
    required
    type="email"
    inputMode="email"
    autoComplete={autoComplete}
    autoCapitalize="off"
    spellCheck={false}
    error={form.errors.email}
    {...form.bind('email')}
  />
);

type CodeFieldProps = {
  form: FormFields<'code'>;
  digits: number;
};

/** The mailed code: digits only, and spaces pasted from the mail are dropped. */
export const CodeField = ({ form, digits }: CodeFieldProps) => (
  <TextField
    label={`認証コード（${digits}桁）`}
    required
    type="text"
    inputMode="numeric"
    autoComplete="one-time-code"
    pattern="[0-9]*"
    maxLength={digits}
    className="code-input"
    error={form.errors.code}
    {...form.bind('code')}
    onChange={(e) => form.setValue('code', e.target.value.replace(/\s/g, ''))}
  />
);

type NewPasswordFieldsProps = {
  form: FormFields<'password' | 'passwordConfirm'>;
  /** The first field's label; the second one adds （確認）. */
  label: string;
};

/** A new password and its confirmation. */
export const NewPasswordFields = ({ form, label }: NewPasswordFieldsProps) => (
  <>
    <PasswordField
      label={label}
      required
      autoComplete="new-password"
      hint={`${PASSWORD_MIN}〜${PASSWORD_MAX}文字。推測されにくいものを設定してください。`}
      error={form.errors.password}
      {...form.bind('password')}
    />
    <PasswordField
      label={`${label}（確認）`}
      required
      autoComplete="new-password"
      error={form.errors.passwordConfirm}
      {...form.bind('passwordConfirm')}
    />
  </>
);
