import { CONTACT_CATEGORIES } from '@proam/contract';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { SelectField, TextAreaField, TextField } from '@/components/form/field';
import { SubmitButton } from '@/components/form/form-actions';
import { fieldOfValidationError } from '@/lib/server-errors';
import { useValidatedForm } from '@/hooks/use-validated-form';
import type { ApiError } from '@/lib/api-error';
import { useCreateContactMutation } from '../contact-api';
import {
  CONTACT_FIELDS,
  MESSAGE_MAX,
  toContactInput,
  validateContactField,
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

export const ContactForm = () => {
  const [sent, setSent] = useState(false);
  const [createContact, { isLoading }] = useCreateContactMutation();
  const thanksRef = useRef<HTMLHeadingElement>(null);
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: CONTACT_FIELDS,
    validate: validateContactField,
    failedMessage: '送信できませんでした。時間をおいて再度お試しください。',
  });
  const { errors, serverError, bind } = form;

  const showThanks = () => {
    setSent(true);
    form.reset(EMPTY);
    window.setTimeout(() => thanksRef.current?.focus(), 0);
  };

  const markRejectedField = (error: ApiError) => {
    const field = fieldOfValidationError(error, CONTACT_FIELDS);
    if (field)
      form.markServerError(
        field,
        `${LABELS[field]}の内容をご確認ください。（${error.msg}）`,
      );
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

  return (
    <form
      className="contact-form"
      noValidate
      onSubmit={(e) =>
        void form.submit(
          e,
          (v) => createContact(toContactInput(v)),
          showThanks,
          markRejectedField,
        )
      }
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
      <TextField
        label={LABELS.name}
        required
        type="text"
        autoComplete="name"
        error={errors.name}
        {...bind('name')}
      />
      <TextField
        label={LABELS.email}
        required
        type="email"
        autoComplete="email"
        inputMode="email"
        hint="返信はこのアドレスにお送りします。"
        error={errors.email}
        {...bind('email')}
      />
      <TextField
        label={LABELS.phone}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        hint="例：03-1234-5678（お電話での連絡をご希望の場合）"
        error={errors.phone}
        {...bind('phone')}
      />
      <SelectField
        label={LABELS.category}
        required
        placeholder="選択してください"
        options={CONTACT_CATEGORIES}
        error={errors.category}
        {...bind('category')}
      />
      <TextAreaField
        label={LABELS.message}
        required
        rows={8}
        max={MESSAGE_MAX}
        error={errors.message}
        {...bind('message')}
      />
      <p className="form-note">
        ご入力いただいた個人情報は、お問い合わせへの回答のためにのみ利用し、法令に基づく場合を除き第三者に提供することはありません。
      </p>
      <div className="button-row button-row--center">
        <SubmitButton busy={isLoading} busyLabel="送信中…" label="送信する" />
      </div>
    </form>
  );
};
