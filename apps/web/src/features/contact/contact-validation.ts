import {
  ContactCreateInputSchema,
  type ContactCreateInput,
} from '@proam/contract';
import { charCount, maxLengthOf } from '@/lib/contract-limits';

export type ContactValues = {
  name: string;
  email: string;
  phone: string;
  category: string;
  message: string;
};
export type ContactField = keyof ContactValues;

export const CONTACT_FIELDS: readonly ContactField[] = [
  'name',
  'email',
  'phone',
  'category',
  'message',
];

// The API's bounds, so most mistakes are caught before sending.
const input = ContactCreateInputSchema.properties;
export const MESSAGE_MAX = maxLengthOf(input.message);
const NAME_MAX = maxLengthOf(input.name);
const EMAIL_MAX = maxLengthOf(input.email);
const PHONE_MAX = maxLengthOf(input.phone);

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
      if (charCount(v) > NAME_MAX)
        return `お名前は${NAME_MAX}文字以内で入力してください。`;
      return undefined;
    case 'email':
      if (!v) return 'メールアドレスを入力してください。';
      if (charCount(v) > EMAIL_MAX || !EMAIL_RE.test(v)) {
        return 'メールアドレスの形式が正しくありません（例：taro@example.jp）。';
      }
      return undefined;
    case 'phone':
      if (charCount(v) > PHONE_MAX || !PHONE_RE.test(v)) {
        return `電話番号は半角数字とハイフンで、${PHONE_MAX}文字以内で入力してください。`;
      }
      return undefined;
    case 'category':
      return v ? undefined : 'お問い合わせ種別を選択してください。';
    case 'message':
      if (!v) return 'お問い合わせ内容を入力してください。';
      if (charCount(v) > MESSAGE_MAX) {
        return `お問い合わせ内容は${MESSAGE_MAX}文字以内で入力してください。`;
      }
      return undefined;
  }
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
