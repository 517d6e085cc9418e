import { CONTACT_CATEGORIES } from '@proam/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { isApiError } from '@/lib/api-error';
import { useCreateContactMutation } from '../contact-api';
import {
  CONTACT_FIELDS,
  MESSAGE_MAX,
  fieldFromServerMessage,
  toContactInput,
  validateContact,
  validateContactField,
  type ContactErrors,
  type ContactField,
  type ContactValues,
} from '../contact-validation';

const EMPTY: ContactValues = {
  name: '',
  email: '',
  phone: '',
  category: '',
  message: '',
};

const LABELS: Record<ContactField, string> = {
  name: 'お名前',
  email: 'メールアドレス',
  phone: '電話番号',
  category: 'お問い合わせ種別',
  message: 'お問い合わせ内容',
};

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export const ContactForm = () => {
  const [values, setValues] = useState<ContactValues>(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [createContact, { isLoading }] = useCreateContactMutation();
  const baseId = useId();
  const refs = useRef<Partial<Record<ContactField, FieldElement | null>>>({});
  const thanksRef = useRef<HTMLHeadingElement>(null);

  const idOf = (f: ContactField) => `${baseId}-${f}`;
  const errorIdOf = (f: ContactField) => `${baseId}-${f}-error`;

  const update = (field: ContactField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Once a field has shown an error, re-check it as the person corrects it.
    if (errors[field])
      setErrors((prev) => ({
        ...prev,
        [field]: validateContactField(field, next),
      }));
  };

  const blur = (field: ContactField) => {
    // An untouched empty form should not shout; validate on blur only after typing.
    if (values[field] === '' && !errors[field]) return;
    setErrors((prev) => ({
      ...prev,
      [field]: validateContactField(field, values),
    }));
  };

  const focusFirst = (errs: ContactErrors) => {
    const first = CONTACT_FIELDS.find((f) => errs[f]);
    if (first) refs.current[first]?.focus();
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setServerError(null);
    const errs = validateContact(values);
    setErrors(errs);
    if (Object.values(errs).some(Boolean)) {
      focusFirst(errs);
      return;
    }
    const result = await createContact(toContactInput(values));
    if ('data' in result && result.data) {
      setSent(true);
      setValues(EMPTY);
      setErrors({});
      window.setTimeout(() => thanksRef.current?.focus(), 0);
      return;
    }
    const err = 'error' in result ? result.error : undefined;
    const msg = isApiError(err)
      ? err.msg
      : '送信できませんでした。時間をおいて再度お試しください。';
    setServerError(msg);
    const field =
      isApiError(err) && err.code === 'ValidationError'
        ? fieldFromServerMessage(msg)
        : undefined;
    if (field) {
      const fieldErrors = {
        ...errors,
        [field]: `${LABELS[field]}の内容をご確認ください。（${msg}）`,
      };
      setErrors(fieldErrors);
      focusFirst(fieldErrors);
    }
  };

  if (sent) {
    return (
      <div className="contact-thanks" role="status">
        <h2 ref={thanksRef} tabIndex={-1} className="contact-thanks__title">
          お問い合わせありがとうございました
        </h2>
        <p>
          お問い合わせを受け付けました。内容を確認のうえ、担当者より原則3営業日以内にご入力のメールアドレスへご連絡いたします。
        </p>
        <p className="muted">
          数日経っても返信がない場合は、メールアドレスに誤りがあるか、迷惑メールフォルダに振り分けられている可能性があります。お手数ですが再度お問い合わせください。
        </p>
        <div className="button-row">
          <Link to="/" className="button button--primary">
            トップページへ戻る
          </Link>
          <button
            type="button"
            className="button button--outline"
            onClick={() => setSent(false)}
          >
            別のお問い合わせをする
          </button>
        </div>
      </div>
    );
  }

  const fieldProps = (f: ContactField) => ({
    id: idOf(f),
    name: f,
    value: values[f],
    'aria-invalid': errors[f] ? true : undefined,
    'aria-describedby':
      [
        errors[f] ? errorIdOf(f) : '',
        f === 'message' ? `${baseId}-counter` : '',
        f === 'phone' || f === 'email' ? `${baseId}-${f}-hint` : '',
      ]
        .filter(Boolean)
        .join(' ') || undefined,
    onBlur: () => blur(f),
    ref: (el: FieldElement | null) => {
      refs.current[f] = el;
    },
  });

  const label = (f: ContactField, required: boolean) => (
    <label htmlFor={idOf(f)} className="form-field__label">
      {LABELS[f]}
      <span className={required ? 'badge-required' : 'badge-optional'}>
        {required ? '必須' : '任意'}
      </span>
    </label>
  );

  const error = (f: ContactField) =>
    errors[f] ? (
      <p id={errorIdOf(f)} className="form-field__error">
        {errors[f]}
      </p>
    ) : null;

  const overLimit = values.message.length > MESSAGE_MAX;

  return (
    <form
      className="contact-form"
      noValidate
      onSubmit={submit}
      aria-label="お問い合わせフォーム"
    >
      {serverError && (
        <div className="form-alert" role="alert">
          <p>送信できませんでした。{serverError}</p>
          <p>
            入力内容はそのまま残っています。ご確認のうえ、もう一度送信してください。
          </p>
        </div>
      )}
      <div className="form-field">
        {label('name', true)}
        <input
          {...fieldProps('name')}
          type="text"
          autoComplete="name"
          required
          onChange={(e) => update('name', e.target.value)}
        />
        {error('name')}
      </div>
      <div className="form-field">
        {label('email', true)}
        <input
          {...fieldProps('email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          onChange={(e) => update('email', e.target.value)}
        />
        <p id={`${baseId}-email-hint`} className="form-field__hint">
          返信はこのアドレスにお送りします。
        </p>
        {error('email')}
      </div>
      <div className="form-field">
        {label('phone', false)}
        <input
          {...fieldProps('phone')}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          onChange={(e) => update('phone', e.target.value)}
        />
        <p id={`${baseId}-phone-hint`} className="form-field__hint">
          例：03-1234-5678（お電話での連絡をご希望の場合）
        </p>
        {error('phone')}
      </div>
      <div className="form-field">
        {label('category', true)}
        <select
          {...fieldProps('category')}
          required
          onChange={(e) => update('category', e.target.value)}
        >
          <option value="">選択してください</option>
          {CONTACT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        {error('category')}
      </div>
      <div className="form-field">
        {label('message', true)}
        <textarea
          {...fieldProps('message')}
          rows={8}
          required
          onChange={(e) => update('message', e.target.value)}
        />
        <p
          id={`${baseId}-counter`}
          className={`form-field__counter${overLimit ? ' is-over' : ''}`}
        >
          {values.message.length} / {MESSAGE_MAX}文字
        </p>
        {error('message')}
      </div>
      <p className="form-note">
        ご入力いただいた個人情報は、お問い合わせへの回答のためにのみ利用し、法令に基づく場合を除き第三者に提供することはありません。
      </p>
      <div className="button-row button-row--center">
        <button
          type="submit"
          className="button button--primary button--wide"
          disabled={isLoading}
        >
          {isLoading ? '送信中…' : '送信する'}
        </button>
      </div>
    </form>
  );
};
