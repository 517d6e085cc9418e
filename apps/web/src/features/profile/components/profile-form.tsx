import { PREFECTURES, type User } from '@proam/contract';
import { useId, useState, type FormEvent, type Ref } from 'react';
import {
  SelectField,
  TextField,
} from '@/features/auth/components/form-controls';
import { fieldFromServerMessage } from '@/features/auth/auth-validation';
import { apiErrorOf } from '@/features/auth/server-errors';
import { useFormState } from '@/features/auth/use-form-state';
import { useUpdateUserMutation } from '../profile-api';
import {
  LABELS,
  LIMITS,
  fieldsFor,
  formFieldOfServerField,
  toProfileUpdate,
  validateProfileEditField,
  valuesFromUser,
  type ProfileFormField,
  type ProfileFormValues,
} from '../profile-validation';

type TextAreaFieldProps = {
  id: string;
  label: string;
  value: string;
  max: number;
  error?: string;
  hint?: string;
  textareaRef?: Ref<HTMLTextAreaElement>;
  onChange: (value: string) => void;
  onBlur: (e: { relatedTarget: EventTarget | null }) => void;
};

/** A labelled, optional textarea with a live character counter. */
const TextAreaField = ({
  id,
  label,
  value,
  max,
  error,
  hint,
  textareaRef,
  onChange,
  onBlur,
}: TextAreaFieldProps) => {
  const over = value.trim().length > max;
  return (
    <div className="form-field">
      <label htmlFor={id} className="form-field__label">
        {label}
        <span className="badge-optional">任意</span>
      </label>
      <textarea
        id={id}
        ref={textareaRef}
        rows={6}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [error && `${id}-error`, hint && `${id}-hint`, `${id}-counter`]
            .filter(Boolean)
            .join(' ') || undefined
        }
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      {hint && (
        <p id={`${id}-hint`} className="form-field__hint">
          {hint}
        </p>
      )}
      <p
        id={`${id}-counter`}
        className={`form-field__counter${over ? ' is-over' : ''}`}
      >
        {value.trim().length} / {max}文字
      </p>
      {error && (
        <p id={`${id}-error`} className="form-field__error">
          {error}
        </p>
      )}
    </div>
  );
};

type ProfileFormProps = { user: User };

/**
 * Edits the profile with `/user/update`. Mistakes are explained beside each
 * field (the first gets focus) and what was typed is kept on any failure.
 */
export const ProfileForm = ({ user }: ProfileFormProps) => {
  const baseId = useId();
  const [saved, setSaved] = useState<ProfileFormValues>(() =>
    valuesFromUser(user),
  );
  const fields = fieldsFor(user.type);
  const form = useFormState<ProfileFormField, ProfileFormValues>(
    saved,
    fields,
    (f, v) => validateProfileEditField(f, v, saved),
  );
  const [updateUser, { isLoading }] = useUpdateUserMutation();
  const [status, setStatus] = useState('');
  const { values, errors } = form;

  const idOf = (f: ProfileFormField) => `${baseId}-${f}`;
  // Leaving a field for 保存する validates on submit instead: an error shown on
  // blur would move the button away before the click lands.
  const blurFrom =
    (f: ProfileFormField) => (e: { relatedTarget: EventTarget | null }) => {
      const to = e.relatedTarget;
      if (to instanceof HTMLButtonElement && to.type === 'submit') return;
      form.blur(f);
    };
  const set = (f: ProfileFormField) => (value: string) => {
    setStatus('');
    form.setValue(f, value);
  };

  const text = (
    f: ProfileFormField,
    max: number,
    extra: {
      required?: boolean;
      hint?: string;
      inputMode?: 'numeric';
      autoComplete?: string;
    } = {},
  ) => (
    <TextField
      id={idOf(f)}
      name={f}
      label={LABELS[f]}
      required={extra.required}
      hint={extra.hint}
      inputMode={extra.inputMode}
      autoComplete={extra.autoComplete ?? 'off'}
      maxLength={max + 20}
      value={values[f]}
      error={errors[f]}
      inputRef={form.register(f)}
      onChange={(e) => set(f)(e.target.value)}
      onBlur={blurFrom(f)}
    />
  );

  const area = (f: ProfileFormField, max: number, hint?: string) => (
    <TextAreaField
      id={idOf(f)}
      label={LABELS[f]}
      max={max}
      hint={hint}
      value={values[f]}
      error={errors[f]}
      textareaRef={form.register(f)}
      onChange={set(f)}
      onBlur={blurFrom(f)}
    />
  );

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus('');
    if (!form.validateForm()) {
      setStatus('入力内容をご確認ください。');
      return;
    }
    const result = await updateUser(toProfileUpdate(user, values));
    if ('data' in result && result.data) {
      setSaved(valuesFromUser(result.data));
      setStatus('プロフィールを保存しました。');
      return;
    }
    const error = apiErrorOf(result);
    const field = formFieldOfServerField(
      error?.code === 'ValidationError'
        ? fieldFromServerMessage(error.msg)
        : undefined,
    );
    if (field && fields.includes(field))
      form.markServerError(field, `${LABELS[field]}の内容をご確認ください。`);
    setStatus('保存できませんでした。入力内容はそのまま残っています。');
  };

  const numberHint = (min: number, max: number, unit: string) =>
    `半角数字で${min}〜${max.toLocaleString('ja-JP')}${unit}`;

  return (
    <form
      className="profile-form"
      noValidate
      aria-labelledby={`${baseId}-title`}
      onSubmit={(e) => void onSubmit(e)}
    >
      <h2 id={`${baseId}-title`} className="member-section__title">
        プロフィール編集
      </h2>
      <div className="profile-form__grid">
        {text('userName', LIMITS.userName, {
          required: true,
          autoComplete: 'name',
        })}
        {text('nameKana', LIMITS.nameKana, {
          hint: 'ひらがなで入力してください（例：やまもと たくや）',
        })}
        <SelectField
          id={idOf('area')}
          name="area"
          label={LABELS.area}
          value={values.area}
          options={PREFECTURES}
          placeholder="選択してください"
          error={errors.area}
          selectRef={form.register('area')}
          onChange={set('area')}
          onBlur={() => form.blur('area')}
        />
      </div>
      {area('bio', LIMITS.bio)}
      {user.type === 'pro' && (
        <fieldset className="profile-form__group">
          <legend>プロ情報</legend>
          <div className="profile-form__grid">
            {text('affiliation', LIMITS.affiliation)}
            {text('lessonFee', 8, {
              inputMode: 'numeric',
              hint: numberHint(0, LIMITS.lessonFeeMax, '円'),
            })}
            {text('homeCourse', LIMITS.homeCourse)}
            {text('specialty', LIMITS.specialty, {
              hint: '例：アプローチ、パター',
            })}
          </div>
          {area('career', LIMITS.career)}
        </fieldset>
      )}
      {user.type === 'amature' && (
        <fieldset className="profile-form__group">
          <legend>ゴルフ情報</legend>
          <div className="profile-form__grid">
            {text('averageScore', 3, {
              inputMode: 'numeric',
              hint: numberHint(...LIMITS.averageScore, ''),
            })}
            {text('experienceYears', 2, {
              inputMode: 'numeric',
              hint: numberHint(...LIMITS.experienceYears, '年'),
            })}
          </div>
        </fieldset>
      )}
      <div className="profile-form__actions">
        <button
          type="submit"
          className="button button--primary button--large"
          disabled={isLoading}
        >
          {isLoading ? '保存中…' : '保存する'}
        </button>
        <p
          className={`profile-form__status${status.includes('保存しました') ? ' is-success' : ''}`}
          role="status"
          aria-live="polite"
        >
          {status}
        </p>
      </div>
    </form>
  );
};
