import type { ContactCreateInput } from '@proam/contract';

export type ContactValues = {
  name: string;
  email: string;
  phone: string;
  category: string;
  message: string;
};
export type ContactField = keyof ContactValues;
export type ContactErrors = Partial<Record<ContactField, string>>;

export const CONTACT_FIELDS: readonly ContactField[] = [
  'name',
  'email',
  'phone',
  'category',
  'message',
];
export const MESSAGE_MAX = 2000;
export const NAME_MAX = 40;

// Mirrors the API's bounds (spec/API.md) so most mistakes are caught before sending.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_RE = /^[0-9+()\- ]*$/;

export const validateContactField = (
  field: ContactField,
  values: ContactValues,
): string | undefined => {
  const v = values[field].trim();
  switch (field) {
    case 'name':
      if (!v) return 'お名前を入力してください。';
      if (v.length > NAME_MAX)
        return `お名前は${NAME_MAX}文字以内で入力してください。`;
      return undefined;
    case 'email':
      if (!v) return 'メールアドレスを入力してください。';
      if (v.length > 254 || !EMAIL_RE.test(v)) {
        return 'メールアドレスの形式が正しくありません（例：taro@example.jp）。';
      }
      return undefined;
    case 'phone':
      if (v.length > 20 || !PHONE_RE.test(v)) {
        return '電話番号は半角数字とハイフンで、20文字以内で入力してください。';
      }
      return undefined;
    case 'category':
      return v ? undefined : 'お問い合わせ種別を選択してください。';
    case 'message':
      if (!v) return 'お問い合わせ内容を入力してください。';
      if (values.message.length > MESSAGE_MAX) {
        return `お問い合わせ内容は${MESSAGE_MAX}文字以内で入力してください。`;
      }
      return undefined;
  }
};

export const validateContact = (values: ContactValues): ContactErrors => {
  const errors: ContactErrors = {};
  for (const f of CONTACT_FIELDS) {
    const e = validateContactField(f, values);
    if (e) errors[f] = e;
  }
  return errors;
};

export const toContactInput = (values: ContactValues): ContactCreateInput => {
  const phone = values.phone.trim();
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    ...(phone ? { phone } : {}),
    category: values.category,
    message: values.message.trim(),
  };
};

/** `入力内容に誤りがあります。（email）` → `email`, when it names a form field. */
export const fieldFromServerMessage = (
  msg: string,
): ContactField | undefined => {
  const m = /[（(]([A-Za-z]+)[）)]\s*$/.exec(msg);
  const name = m?.[1];
  return CONTACT_FIELDS.find((f) => f === name);
};
