import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppSelector } from '@/app/hooks';
import { selectCurrentAlert } from '@/lib/ui-slice';
import { validateAll, type Errors } from './auth-validation';

type FocusTarget =
  | HTMLInputElement
  | HTMLSelectElement
  | HTMLTextAreaElement
  | HTMLButtonElement;

/**
 * Values, field errors and focus for one form. Errors appear on submit (the
 * first invalid field gets focus) and, once shown, follow the person's edits.
 */
export const useFormState = <F extends string, V extends Record<F, string>>(
  initial: V,
  fields: readonly F[],
  validate: (field: F, values: V) => string | undefined,
) => {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Errors<F>>({});
  const refs = useRef<Partial<Record<F, FocusTarget | null>>>({});
  const pendingFocus = useRef<F | null>(null);
  const alertOpen = useAppSelector(selectCurrentAlert) !== null;

  const setValue = (field: F, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Re-check every field already showing an error: a new password can fix its confirmation.
    setErrors((prev) => {
      const updated = { ...prev };
      for (const f of fields) if (prev[f]) updated[f] = validate(f, next);
      return updated;
    });
  };

  const blur = (field: F) => {
    // An untouched empty field should not shout.
    if (values[field] === '' && !errors[field]) return;
    setErrors((prev) => ({ ...prev, [field]: validate(field, values) }));
  };

  const focusField = useCallback((field: F) => {
    refs.current[field]?.focus();
  }, []);

  /** Validates every field; false (and focus on the first invalid one) on a mistake. */
  const validateForm = (): boolean => {
    const found = validateAll(fields, values, validate);
    setErrors(found);
    const first = fields.find((f) => found[f]);
    if (first) {
      focusField(first);
      return false;
    }
    return true;
  };

  /**
   * Marks a field the server rejected. While the エラー alert is up, focus
   * moves there once it is acknowledged.
   */
  const markServerError = (field: F, message: string) => {
    setErrors((prev) => ({ ...prev, [field]: message }));
    pendingFocus.current = field;
  };

  useEffect(() => {
    if (alertOpen || !pendingFocus.current) return;
    const field = pendingFocus.current;
    pendingFocus.current = null;
    // After the dialog has handed focus back to where it was.
    const timer = window.setTimeout(() => focusField(field), 0);
    return () => window.clearTimeout(timer);
  }, [alertOpen, errors, focusField]);

  const register = (field: F) => (el: FocusTarget | null) => {
    refs.current[field] = el;
  };

  return {
    values,
    errors,
    setValue,
    blur,
    validateForm,
    markServerError,
    register,
    focusField,
  };
};
