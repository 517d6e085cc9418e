import { PREFECTURES } from '@proam/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useCreateUserMutation, useSendCodeMutation } from '../auth-api';
import {
  PROFILE_FIELDS,
  REGISTER_CODE_DIGITS,
  USER_NAME_MAX,
  KANA_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  validateCode,
  validateEmail,
  validateProfileField,
  type ProfileValues,
} from '../auth-validation';
import { apiErrorOf, fieldOfValidationError } from '../server-errors';
import { useFormState } from '../use-form-state';
import {
  PasswordField,
  RadioGroup,
  SelectField,
  TextField,
} from './form-controls';
import { StepIndicator } from './step-indicator';

type Step = 1 | 2 | 3;
const STEPS = ['メールアドレス', '認証コード', 'プロフィール'] as const;

type MailValues = { email: string };
type CodeValues = { code: string };

const EMPTY_PROFILE: ProfileValues = {
  userName: '',
  nameKana: '',
  type: '',
  password: '',
  passwordConfirm: '',
  area: '',
};

const MEMBER_TYPES = [
  {
    value: 'amature',
    label: 'アマチュア会員',
    description: 'プロを探して、ラウンドレッスンを予約します',
  },
  {
    value: 'pro',
    label: 'プロ会員',
    description: 'ラウンドレッスンを公開して、アマチュアと回ります',
  },
] as const;

/**
 * Registration in three steps: the address gets a 6-digit code
 * (`/auth/code`), the code is entered, then the profile and password go to
 * `/user/create`, whose token logs the new member in.
 */
export const RegisterForm = () => {
  const id = useId();
  const [step, setStep] = useState<Step>(1);
  const [resent, setResent] = useState(false);
  const [sendCode, { isLoading: sending }] = useSendCodeMutation();
  const [createUser, { isLoading: creating }] = useCreateUserMutation();
  const mail = useFormState<'email', MailValues>(
    { email: '' },
    ['email'],
    (_, v) => validateEmail(v.email),
  );
  const code = useFormState<'code', CodeValues>(
    { code: '' },
    ['code'],
    (_, v) => validateCode(v.code, REGISTER_CODE_DIGITS),
  );
  const profile = useFormState(
    EMPTY_PROFILE,
    PROFILE_FIELDS,
    validateProfileField,
  );
  const firstRender = useRef(true);

  // A new step starts at its first field (or the one the server rejected).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (step === 1) mail.focusField('email');
    else if (step === 2) code.focusField('code');
    else profile.focusField('userName');
    // Only on step changes: the forms' identities change on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step]);

  const email = mail.values.email.trim();

  const submitMail = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!mail.validateForm()) return;
    const result = await sendCode({ email });
    const error = apiErrorOf(result);
    if (error) {
      if (fieldOfValidationError(error, ['email'] as const))
        mail.markServerError('email', 'メールアドレスをご確認ください。');
      return;
    }
    setResent(false);
    setStep(2);
  };

  const resend = async () => {
    setResent(false);
    const result = await sendCode({ email });
    if (!apiErrorOf(result)) setResent(true);
  };

  const submitCode = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // The API has no separate check: the code is verified with the registration.
    if (code.validateForm()) setStep(3);
  };

  const submitProfile = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!profile.validateForm()) return;
    const v = profile.values;
    if (v.type === '') return;
    const result = await createUser({
      email,
      code: code.values.code.trim(),
      password: v.password,
      userName: v.userName.trim(),
      type: v.type,
      nameKana: v.nameKana.trim(),
      ...(v.area ? { area: v.area as (typeof PREFECTURES)[number] } : {}),
    });
    const error = apiErrorOf(result);
    if (!error) return; // Logged in: the register route moves on.
    const field = fieldOfValidationError(error, [
      'email',
      'code',
      ...PROFILE_FIELDS,
    ] as const);
    if (error.code === 'InvalidCode' || field === 'code') {
      code.markServerError(
        'code',
        '認証コードが正しくないか、有効期限が切れています。コードを確認するか、再送信してください。',
      );
      setStep(2);
    } else if (error.code === 'EmailTaken' || field === 'email') {
      mail.markServerError(
        'email',
        error.code === 'EmailTaken'
          ? 'このメールアドレスは既に登録されています。'
          : 'メールアドレスをご確認ください。',
      );
      setStep(1);
    } else if (field) {
      profile.markServerError(
        field,
        field === 'password'
          ? 'このパスワードは使用できません。推測されにくいパスワードを入力してください。'
          : '入力内容をご確認ください。',
      );
    }
  };

  return (
    <div className="auth-steps">
      <StepIndicator steps={STEPS} current={step} />

      {step === 1 && (
        <form
          className="auth-form"
          noValidate
          onSubmit={submitMail}
          aria-labelledby={`${id}-s1`}
        >
          <h2 id={`${id}-s1`} className="auth-form__title">
            メールアドレスの確認
          </h2>
          <p className="auth-form__lead">
            ご登録のメールアドレスに、6桁の認証コードをお送りします。
          </p>
          <TextField
            id={`${id}-email`}
            name="email"
            label="メールアドレス"
            required
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="off"
            spellCheck={false}
            value={mail.values.email}
            error={mail.errors.email}
            inputRef={mail.register('email')}
            onChange={(e) => mail.setValue('email', e.target.value)}
            onBlur={() => mail.blur('email')}
          />
          <button
            type="submit"
            className="button button--primary button--wide"
            disabled={sending}
          >
            {sending ? '送信中…' : '認証コードを送信'}
          </button>
        </form>
      )}

      {step === 2 && (
        <form
          className="auth-form"
          noValidate
          onSubmit={submitCode}
          aria-labelledby={`${id}-s2`}
        >
          <h2 id={`${id}-s2`} className="auth-form__title">
            認証コードの入力
          </h2>
          <p className="auth-form__lead">
            <strong className="auth-form__email">{email}</strong>
            に認証コードをお送りしました。メールに記載の6桁の数字を入力してください（有効期限10分）。
          </p>
          <TextField
            id={`${id}-code`}
            name="code"
            label="認証コード（6桁）"
            required
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={REGISTER_CODE_DIGITS}
            className="code-input"
            value={code.values.code}
            error={code.errors.code}
            inputRef={code.register('code')}
            onChange={(e) =>
              code.setValue('code', e.target.value.replace(/\s/g, ''))
            }
            onBlur={() => code.blur('code')}
          />
          <button type="submit" className="button button--primary button--wide">
            次へ
          </button>
          <div className="auth-links">
            <p className="muted">
              メールが届かない場合は、迷惑メールフォルダもご確認ください。
            </p>
            <button
              type="button"
              className="link-button"
              onClick={() => void resend()}
              disabled={sending}
            >
              認証コードを再送信する
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => setStep(1)}
            >
              メールアドレスを変更する
            </button>
            <p className="auth-form__status" role="status">
              {resent
                ? '認証コードを再送信しました。新しいコードを入力してください。'
                : ''}
            </p>
          </div>
        </form>
      )}

      {step === 3 && (
        <form
          className="auth-form"
          noValidate
          onSubmit={submitProfile}
          aria-labelledby={`${id}-s3`}
        >
          <h2 id={`${id}-s3`} className="auth-form__title">
            プロフィールとパスワード
          </h2>
          <p className="auth-form__lead">
            プロフィールは登録後にいつでも変更できます。
          </p>
          <TextField
            id={`${id}-userName`}
            name="userName"
            label="氏名"
            required
            autoComplete="name"
            maxLength={USER_NAME_MAX * 2}
            hint="例：山田 太郎"
            value={profile.values.userName}
            error={profile.errors.userName}
            inputRef={profile.register('userName')}
            onChange={(e) => profile.setValue('userName', e.target.value)}
            onBlur={() => profile.blur('userName')}
          />
          <TextField
            id={`${id}-nameKana`}
            name="nameKana"
            label="ふりがな"
            required
            maxLength={KANA_MAX * 2}
            hint="例：やまだ たろう"
            value={profile.values.nameKana}
            error={profile.errors.nameKana}
            inputRef={profile.register('nameKana')}
            onChange={(e) => profile.setValue('nameKana', e.target.value)}
            onBlur={() => profile.blur('nameKana')}
          />
          <RadioGroup
            id={`${id}-type`}
            legend="会員種別"
            name="type"
            value={profile.values.type}
            options={MEMBER_TYPES}
            error={profile.errors.type}
            firstRef={profile.register('type')}
            onChange={(v) => profile.setValue('type', v)}
          />
          <PasswordField
            id={`${id}-password`}
            name="password"
            label="パスワード"
            required
            autoComplete="new-password"
            hint={`${PASSWORD_MIN}〜${PASSWORD_MAX}文字。推測されにくいものを設定してください。`}
            value={profile.values.password}
            error={profile.errors.password}
            inputRef={profile.register('password')}
            onChange={(e) => profile.setValue('password', e.target.value)}
            onBlur={() => profile.blur('password')}
          />
          <PasswordField
            id={`${id}-passwordConfirm`}
            name="passwordConfirm"
            label="パスワード（確認）"
            required
            autoComplete="new-password"
            value={profile.values.passwordConfirm}
            error={profile.errors.passwordConfirm}
            inputRef={profile.register('passwordConfirm')}
            onChange={(e) =>
              profile.setValue('passwordConfirm', e.target.value)
            }
            onBlur={() => profile.blur('passwordConfirm')}
          />
          <SelectField
            id={`${id}-area`}
            name="area"
            label="地域"
            placeholder="選択しない"
            options={PREFECTURES}
            hint="主に活動する都道府県"
            value={profile.values.area}
            error={profile.errors.area}
            selectRef={profile.register('area')}
            onChange={(v) => profile.setValue('area', v)}
          />
          <button
            type="submit"
            className="button button--primary button--wide"
            disabled={creating}
          >
            {creating ? '登録中…' : '登録する'}
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() => setStep(2)}
          >
            認証コードの入力に戻る
          </button>
        </form>
      )}
    </div>
  );
};
