import { CodeSendInputSchema, UserCreateInputSchema } from '@proam/contract';
import { charCount, maxLengthOf, minLengthOf } from '@/lib/contract-limits';
import { isAreaOrNone } from '@/lib/area';

// The API's bounds, so most mistakes never leave the page.
const { password, userName, nameKana } = UserCreateInputSchema.properties;
export const PASSWORD_MIN = minLengthOf(password);
export const PASSWORD_MAX = maxLengthOf(password);
export const USER_NAME_MAX = maxLengthOf(userName);
export const KANA_MAX = maxLengthOf(nameKana);
const EMAIL_MAX = maxLengthOf(CodeSendInputSchema.properties.email);
/** The contract's code is 6 to 8 digits: 6 for registration, 8 for a reset. */
export const REGISTER_CODE_DIGITS = 6;
export const RESET_CODE_DIGITS = 8;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// ひらがな・カタカナ・長音・空白 (全角/半角)
const KANA_RE = /^[\u3041-\u3096\u30A1-\u30FA\u30FC\u3000 ]+$/;

export const validateEmail = (value: string): string | undefined => {
  const v = value.trim();
  if (!v) return 'メールアドレスを入力してください。';
  if (charCount(v) > EMAIL_MAX || !EMAIL_RE.test(v))
    return 'メールアドレスの形式が正しくありません（例：taro@example.jp）。';
  return undefined;
};

/** Login only checks presence: the server judges the password itself. */
export const validateLoginPassword = (value: string): string | undefined =>
  value ? undefined : 'パスワードを入力してください。';

export const validateNewPassword = (value: string): string | undefined => {
  if (!value) return 'パスワードを入力してください。';
  const length = charCount(value);
  if (length < PASSWORD_MIN || length > PASSWORD_MAX)
    return `パスワードは${PASSWORD_MIN}文字以上${PASSWORD_MAX}文字以内で入力してください。`;
  if (!value.trim()) return 'パスワードに空白以外の文字を含めてください。';
  return undefined;
};

export const validatePasswordConfirm = (
  password: string,
  confirm: string,
): string | undefined => {
  if (!confirm) return '確認のため、パスワードをもう一度入力してください。';
  return confirm === password ? undefined : 'パスワードが一致しません。';
};

export const validateCode = (
  value: string,
  digits: number,
): string | undefined => {
  const v = value.trim();
  if (!v) return '認証コードを入力してください。';
  if (!new RegExp(`^[0-9]{${digits}}$`).test(v))
    return `認証コードは${digits}桁の半角数字で入力してください。`;
  return undefined;
};

export type LoginValues = { email: string; password: string };
export type LoginField = keyof LoginValues;
export const LOGIN_FIELDS: readonly LoginField[] = ['email', 'password'];

export const validateLoginField = (
  field: LoginField,
  values: LoginValues,
): string | undefined =>
  field === 'email'
    ? validateEmail(values.email)
    : validateLoginPassword(values.password);

export type ProfileValues = {
  userName: string;
  nameKana: string;
  type: '' | 'pro' | 'amature';
  password: string;
  passwordConfirm: string;
  area: string;
  /** The agreement checkbox: `agreed` when ticked. */
  terms: '' | 'agreed';
};
export type ProfileField = keyof ProfileValues;
export const PROFILE_FIELDS: readonly ProfileField[] = [
  'userName',
  'nameKana',
  'type',
  'password',
  'passwordConfirm',
  'area',
  'terms',
];

export const TERMS_REQUIRED_MSG =
  '利用規約とプライバシーポリシーをご確認のうえ、「同意する」にチェックを入れてください。';

export const validateProfileField = (
  field: ProfileField,
  values: ProfileValues,
): string | undefined => {
  switch (field) {
    case 'userName': {
      const v = values.userName.trim();
      if (!v) return '氏名を入力してください。';
      if (charCount(v) > USER_NAME_MAX)
        return `氏名は${USER_NAME_MAX}文字以内で入力してください。`;
      return undefined;
    }
    case 'nameKana': {
      const v = values.nameKana.trim();
      if (!v) return 'ふりがなを入力してください。';
      if (charCount(v) > KANA_MAX)
        return `ふりがなは${KANA_MAX}文字以内で入力してください。`;
      if (!KANA_RE.test(v))
        return 'ふりがなはひらがな（またはカタカナ）で入力してください。';
      return undefined;
    }
    case 'type':
      return values.type ? undefined : '会員種別を選択してください。';
    case 'password':
      return validateNewPassword(values.password);
    case 'passwordConfirm':
      return validatePasswordConfirm(values.password, values.passwordConfirm);
    case 'area':
      return isAreaOrNone(values.area)
        ? undefined
        : '地域は一覧から選択してください。';
    case 'terms':
      return values.terms === 'agreed' ? undefined : TERMS_REQUIRED_MSG;
  }
};

export type ResetValues = {
  code: string;
  password: string;
  passwordConfirm: string;
};
export type ResetField = keyof ResetValues;
export const RESET_FIELDS: readonly ResetField[] = [
  'code',
  'password',
  'passwordConfirm',
];

export const validateResetField = (
  field: ResetField,
  values: ResetValues,
): string | undefined => {
  switch (field) {
    case 'code':
      return validateCode(values.code, RESET_CODE_DIGITS);
    case 'password':
      return validateNewPassword(values.password);
    case 'passwordConfirm':
      return validatePasswordConfirm(values.password, values.passwordConfirm);
  }
};
