import type { FormEvent, ReactNode } from 'react';
import { SubmitButton } from '@/components/form/form-actions';
import type { FormFields } from '@/hooks/use-validated-form';
import { CodeField, EmailField } from './auth-fields';
import { StepIndicator } from './step-indicator';

export type Step = 1 | 2 | 3;

type StepFormProps = {
  /** The form's `useId`; the heading's id is `${id}-s${step}`. */
  id: string;
  step: Step;
  title: string;
  lead: ReactNode;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void | Promise<void>;
  children: ReactNode;
};

/** One step of a multi-step form, named by its heading. */
export const StepForm = ({
  id,
  step,
  title,
  lead,
  onSubmit,
  children,
}: StepFormProps) => (
  <form
    className="auth-form"
    noValidate
    onSubmit={(e) => void onSubmit(e)}
    aria-labelledby={`${id}-s${step}`}
  >
    <h2 id={`${id}-s${step}`} className="auth-form__title">
      {title}
    </h2>
    <p className="auth-form__lead">{lead}</p>
    {children}
  </form>
);

type MailStepProps = Pick<
  StepFormProps,
  'id' | 'title' | 'lead' | 'onSubmit'
> & {
  mail: FormFields<'email'>;
  autoComplete: 'email' | 'username';
  sending: boolean;
  /** Below the button. */
  children?: ReactNode;
};

/** Step 1 of a mailed-code flow: the address that gets the code. */
export const MailStep = ({
  mail,
  autoComplete,
  sending,
  children,
  ...step
}: MailStepProps) => (
  <StepForm step={1} {...step}>
    <EmailField form={mail} autoComplete={autoComplete} />
    <SubmitButton busy={sending} busyLabel="送信中…" label="認証コードを送信" />
    {children}
  </StepForm>
);

type MailCodeStepsProps = {
  steps: readonly string[];
  step: Step;
  /** Step 1. */
  mailStep: MailStepProps;
  /** The later steps, shown from step 2 on. */
  children: ReactNode;
};

/** A mailed-code flow: where the member is, then the address or the later steps. */
export const MailCodeSteps = ({
  steps,
  step,
  mailStep,
  children,
}: MailCodeStepsProps) => (
  <div className="auth-steps">
    <StepIndicator steps={steps} current={step} />
    {step === 1 ? <MailStep {...mailStep} /> : children}
  </div>
);

type CodeStepProps = Pick<StepFormProps, 'id' | 'title' | 'onSubmit'> & {
  /** Where the code went. */
  email: string;
  /** What to type, after where the code went. */
  instructions: string;
  code: FormFields<'code'>;
  digits: number;
  sending: boolean;
  onResend: () => void;
  onChangeMail: () => void;
  /** The fields after the code, and the send button. */
  children: ReactNode;
  /** Above the ways out (where else the mail may be). */
  linksNote?: ReactNode;
  /** Below the ways out (that another code went). */
  linksStatus?: ReactNode;
};

/**
 * Step 2 of a mailed-code flow: the code, what goes with it, and the ways
 * out (another code, or back to the address).
 */
export const CodeStep = ({
  email,
  instructions,
  code,
  digits,
  sending,
  onResend,
  onChangeMail,
  children,
  linksNote,
  linksStatus,
  ...step
}: CodeStepProps) => (
  <StepForm
    step={2}
    lead={
      <>
        <strong className="auth-form__email">{email}</strong>
        に認証コードをお送りしました。{instructions}
      </>
    }
    {...step}
  >
    <CodeField form={code} digits={digits} />
    {children}
    <div className="auth-links">
      {linksNote}
      <button
        type="button"
        className="link-button"
        onClick={onResend}
        disabled={sending}
      >
        認証コードを再送信する
      </button>
      <button type="button" className="link-button" onClick={onChangeMail}>
        メールアドレスを変更する
      </button>
      {linksStatus}
    </div>
  </StepForm>
);
