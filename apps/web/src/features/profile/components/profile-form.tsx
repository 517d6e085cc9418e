import { PREFECTURES, type User } from '@proam/contract';
import { useId, useState, type FormEvent } from 'react';
import { SelectField, TextAreaField, TextField } from '@/components/form/field';
import { apiErrorOf, fieldFromServerMessage } from '@/lib/server-errors';
import { useValidatedForm } from '@/hooks/use-validated-form';
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
import { BusyButton } from '@/components/form/form-actions';
import { groupDigits } from '@/lib/format';

/** How many digits the largest allowed number has. */
const digitsOf = ([, max]: readonly [number, number]) => String(max).length;

type ProfileFormProps = { user: User };

/**
 * Edits the profile with `/user/update`. Mistakes are explained beside each
 * field (the first gets focus) and what was typed is kept on any failure.
 */
export const ProfileForm = ({ user }: ProfileFormProps) => {
  const titleId = useId();
  const fields = fieldsFor(user.type);
  const form = useValidatedForm<ProfileFormValues>({
    initialValues: () => valuesFromUser(user),
    fields,
    validate: validateProfileEditField,
  });
  const [updateUser, { isLoading }] = useUpdateUserMutation();
  const [status, setStatus] = useState('');
  const { values, errors } = form;

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
      label={LABELS[f]}
      required={extra.required}
      hint={extra.hint}
      inputMode={extra.inputMode}
      autoComplete={extra.autoComplete ?? 'off'}
      maxLength={max + 20}
      error={errors[f]}
      {...form.bind(f)}
      onChange={(e) => set(f)(e.target.value)}
      onBlur={blurFrom(f)}
    />
  );

  const area = (f: ProfileFormField, max: number, hint?: string) => (
    <TextAreaField
      label={LABELS[f]}
      rows={6}
      max={max}
      hint={hint}
      error={errors[f]}
      {...form.bind(f)}
      onChange={(e) => set(f)(e.target.value)}
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
    `半角数字で${min}〜${groupDigits(max)}${unit}`;

  return (
    <form
      className="profile-form"
      noValidate
      aria-labelledby={titleId}
      onSubmit={(e) => void onSubmit(e)}
    >
      <h2 id={titleId} className="member-section__title">
        プロフィール編集
      </h2>
      <div className="profile-form__grid">
        {text('userName', LIMITS.userName, {
          required: true,
          autoComplete: 'name',
        })}
        {text('nameKana', LIMITS.nameKana, {
          hint: 'ひらがな（またはカタカナ）で入力してください（例：やまもと たくや）',
        })}
        <SelectField
          label={LABELS.area}
          options={PREFECTURES}
          placeholder="選択してください"
          error={errors.area}
          {...form.bind('area')}
          onChange={(e) => set('area')(e.target.value)}
        />
      </div>
      {area('bio', LIMITS.bio)}
      {user.type === 'pro' && (
        <fieldset className="profile-form__group">
          <legend>プロ情報</legend>
          <div className="profile-form__grid">
            {text('affiliation', LIMITS.affiliation)}
            {text('lessonFee', digitsOf(LIMITS.lessonFee), {
              inputMode: 'numeric',
              hint: numberHint(...LIMITS.lessonFee, '円'),
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
            {text('averageScore', digitsOf(LIMITS.averageScore), {
              inputMode: 'numeric',
              hint: numberHint(...LIMITS.averageScore, ''),
            })}
            {text('experienceYears', digitsOf(LIMITS.experienceYears), {
              inputMode: 'numeric',
              hint: numberHint(...LIMITS.experienceYears, '年'),
            })}
          </div>
        </fieldset>
      )}
      <div className="profile-form__actions">
        <BusyButton
          type="submit"
          className="button button--primary button--large"
          busy={isLoading}
          busyLabel="保存中…"
          label="保存する"
        />
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
