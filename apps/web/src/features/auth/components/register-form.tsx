import { PREFECTURES, TERMS_VERSION } from '@proam/contract';
import { useId, useState, type FormEvent } from 'react';
import { RadioGroup, SelectField, TextField } from '@/components/form/field';
import { SubmitButton } from '@/components/form/form-actions';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { useCreateUserMutation, useSendCodeMutation } from '../auth-api';
import {
  PROFILE_FIELDS,
  REGISTER_CODE_DIGITS,
  USER_NAME_MAX,
  KANA_MAX,
  validateCode,
  validateProfileField,
  type ProfileValues,
} from '../auth-validation';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import { NewPasswordFields } from './auth-fields';
import { CodeStep, MailCodeSteps, StepForm, type Step } from './step-form';
import { TermsConsent } from './terms-consent';
import { useMailStep } from './use-mail-step';
import { useStepFocus } from './use-step-focus';

const STEPS = ['メールアドレス', '認証コード', 'プロフィール'] as const;

const EMPTY_PROFILE: ProfileValues = {
  userName: '',
  nameKana: '',
  type: '',
  password: '',
  passwordConfirm: '',
  area: '',
  terms: '',
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
  const { mail, email, submitMail } = useMailStep(sendCode, () => {
    setResent(false);
    setStep(2);
  });
  const code = useValidatedForm({
    initialValues: { code: '' },
    fields: ['code'],
    validate: (_, v) => validateCode(v.code, REGISTER_CODE_DIGITS),
  });
  const profile = useValidatedForm({
    initialValues: EMPTY_PROFILE,
    fields: PROFILE_FIELDS,
    validate: validateProfileField,
  });

  // A new step starts at its first field (or the one the server rejected).
  useStepFocus(step, (s) => {
    if (s === 1) mail.focusField('email');
    else if (s === 2) code.focusField('code');
    else profile.focusField('userName');
  });

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
      termsVersion: TERMS_VERSION,
    });
    const error = apiErrorOf(result);
    if (!error) return; // Logged in: the register route moves on.
    const field = fieldOfValidationError(error, [
      'email',
      'code',
      'termsVersion',
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
    } else if (field === 'termsVersion') {
      // The page predates the terms in force: reading them again is the way on.
      profile.setValue('terms', '');
      profile.markServerError(
        'terms',
        '利用規約が改定されました。ページを再読み込みし、最新の利用規約をご確認のうえ同意してください。',
      );
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
    <MailCodeSteps
      steps={STEPS}
      step={step}
      mailStep={{
        id,
        title: 'メールアドレスの確認',
        lead: 'ご登録のメールアドレスに、6桁の認証コードをお送りします。',
        onSubmit: submitMail,
        mail,
        autoComplete: 'email',
        sending,
      }}
    >
      {step === 2 && (
        <CodeStep
          id={id}
          title="認証コードの入力"
          email={email}
          instructions="メールに記載の6桁の数字を入力してください（有効期限10分）。"
          code={code}
          digits={REGISTER_CODE_DIGITS}
          onSubmit={submitCode}
          sending={sending}
          onResend={() => void resend()}
          onChangeMail={() => setStep(1)}
          linksNote={
            <p className="muted">
              メールが届かない場合は、迷惑メールフォルダもご確認ください。
            </p>
          }
          linksStatus={
            <p className="auth-form__status" role="status">
              {resent
                ? '認証コードを再送信しました。新しいコードを入力してください。'
                : ''}
            </p>
          }
        >
          <SubmitButton label="次へ" />
        </CodeStep>
      )}

      {step === 3 && (
        <StepForm
          id={id}
          step={3}
          title="プロフィールとパスワード"
          lead="プロフィールは登録後にいつでも変更できます。"
          onSubmit={submitProfile}
        >
          <TextField
            label="氏名"
            required
            autoComplete="name"
            maxLength={USER_NAME_MAX * 2}
            hint="例：山田 太郎"
            error={profile.errors.userName}
            {...profile.bind('userName')}
          />
          <TextField
            label="ふりがな"
            required
            maxLength={KANA_MAX * 2}
            hint="例：やまだ たろう"
            error={profile.errors.nameKana}
            {...profile.bind('nameKana')}
          />
          <RadioGroup
            id={profile.idOf('type')}
            legend="会員種別"
            name="type"
            value={profile.values.type}
            options={MEMBER_TYPES}
            error={profile.errors.type}
            firstRef={profile.register('type')}
            onChange={(v) => profile.setValue('type', v)}
          />
          <NewPasswordFields form={profile} label="パスワード" />
          <SelectField
            label="地域"
            placeholder="選択しない"
            options={PREFECTURES}
            hint="主に活動する都道府県"
            error={profile.errors.area}
            {...profile.bind('area')}
          />
          <TermsConsent
            id={profile.idOf('terms')}
            checked={profile.values.terms === 'agreed'}
            error={profile.errors.terms}
            inputRef={profile.register('terms')}
            onBlur={(e) => profile.blur('terms', e)}
            onChange={(agreed) =>
              profile.setValue('terms', agreed ? 'agreed' : '')
            }
          />
          <SubmitButton busy={creating} busyLabel="登録中…" label="登録する" />
          <button
            type="button"
            className="link-button"
            onClick={() => setStep(2)}
          >
            認証コードの入力に戻る
          </button>
        </StepForm>
      )}
    </MailCodeSteps>
  );
};
