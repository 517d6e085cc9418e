import type { FormEvent, ReactNode } from 'react';
import { SubmitButton } from '@/components/form/form-actions';
import type { FormFields } from '@/hooks/use-validated-form';
import { EmailField } from './auth-fields';
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

type CodeSentLeadProps = { email: string; children: string };

/** The code step's lead: where the code went, then what to type. */
export const CodeSentLead = ({ email, children }: CodeSentLeadProps) => (
  <>
    <strong className="auth-form__email">{email}</strong>
    に認証コードをお送りしました。{children}
  </>
);

type CodeStepLinksProps = {
  sending: boolean;
  onResend: () => void;
  onChangeMail: () => void;
};

/** The code step's ways out: another code, or back to the address. */
export const CodeStepLinks = ({
  sending,
  onResend,
  onChangeMail,
}: CodeStepLinksProps) => (
  <>
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
  </>
);
