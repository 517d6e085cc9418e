import type { FormEvent } from 'react';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { validateEmail } from '../auth-validation';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';

type SendCode = (body: { email: string }) => PromiseLike<{ error?: unknown }>;

/**
 * The first step of a mailed-code flow: the address, checked here and by the
 * server, gets a code from `sendCode`; `onSent` then moves on.
 */
export const useMailStep = (sendCode: SendCode, onSent: () => void) => {
  const mail = useValidatedForm({
    initialValues: { email: '' },
    fields: ['email'],
    validate: (_, v) => validateEmail(v.email),
  });
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
    onSent();
  };

  return { mail, email, submitMail };
};
