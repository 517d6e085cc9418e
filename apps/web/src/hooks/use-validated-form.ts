import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
} from 'react';
import { useAppSelector } from '@/lib/store-hooks';
import { isApiError, type ApiError } from '@/lib/api-error';
import { selectCurrentAlert } from '@/lib/ui-slice';

type Control =
  | HTMLInputElement
  | HTMLSelectElement
  | HTMLTextAreaElement
  | HTMLButtonElement;

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** What an RTK Query mutation trigger resolves to. */
type SaveResult<T> = { data?: T; error?: unknown };

type ValidatedFormOptions<V, F extends string> = {
  initialValues: V | (() => V);
  /** The fields in screen order: the first invalid one gets the focus. */
  fields: readonly F[];
  /** One field's message in Japanese, or undefined when it is fine. */
  validate: (field: F, values: V) => string | undefined;
  /**
   * When a field is first checked: as it is left after typing (`blur`), or
   * only when the form is sent (`submit`).
   */
  checkOn?: 'blur' | 'submit';
  /** What `submit` shows when a save fails without an answer from the server. */
  failedMessage?: string;
};

const SAVE_FAILED_MSG =
  '保存できませんでした。時間をおいて再度お試しください。';

/** The parts of a blur event that say where the focus went. */
export type BlurFrom = {
  currentTarget: EventTarget;
  relatedTarget: EventTarget | null;
};

/**
 * The focus leaves a control for its own form's submit button: the send
 * checks every field anyway, and a message shown now would push the button
 * down between the press and the release, so the click would miss it.
 */
const leavesForSubmit = (e: BlurFrom | undefined) => {
  const to = e?.relatedTarget;
  const from = e?.currentTarget;
  return (
    to instanceof HTMLButtonElement &&
    to.type === 'submit' &&
    to.form !== null &&
    from !== undefined &&
    'form' in from &&
    from.form === to.form
  );
};

/**
 * The one form state of the web app: values (all text, kept on every
 * error), Japanese messages per field and focus. A field showing an error is
 * checked again on every edit, so its message follows what is typed (a new
 * password can fix its confirmation); a send checks every field and focuses
 * the first invalid one. A field left for the form's submit button is not
 * checked on its own: the send that follows checks it with the rest.
 */
export const useValidatedForm = <V extends Record<keyof V, string>>({
  initialValues,
  fields,
  validate,
  checkOn = 'blur',
  failedMessage = SAVE_FAILED_MSG,
}: ValidatedFormOptions<V, keyof V & string>) => {
  type F = keyof V & string;
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const baseId = useId();
  const refs = useRef<Partial<Record<F, Control | null>>>({});
  const pendingFocus = useRef<F | null>(null);
  const alertOpen = useAppSelector(selectCurrentAlert) !== null;

  const idOf = (field: F) => `${baseId}-${field}`;

  const setValue = (field: F, value: string) => {
    const next: V = { ...values, [field]: value };
    setValues(next);
    setErrors((prev) => {
      const updated = { ...prev };
      for (const f of fields) if (prev[f]) updated[f] = validate(f, next);
      return updated;
    });
  };

  /** Checks a field being left; `e` tells where the focus went. */
  const blur = (field: F, e?: BlurFrom) => {
    // An untouched empty field should not shout.
    if (checkOn === 'submit' || (values[field] === '' && !errors[field]))
      return;
    if (leavesForSubmit(e)) return;
    setErrors((prev) => ({ ...prev, [field]: validate(field, values) }));
  };

  const focusField = useCallback((field: F) => {
    refs.current[field]?.focus();
  }, []);

  const register = (field: F) => (el: Control | null) => {
    refs.current[field] = el;
  };

  /** The props that tie a control to one field. */
  const bind = (field: F) => ({
    id: idOf(field),
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- widens F to string so FormFields<F> stays assignable across field subsets
    name: field as string,
    value: values[field],
    onChange: (e: { target: { value: string } }) =>
      setValue(field, e.target.value),
    onBlur: (e: BlurFrom) => blur(field, e),
    ref: register(field),
  });

  /** Checks every field; false, with the focus on the first invalid one, on a mistake. */
  const validateForm = (): boolean => {
    const found: FieldErrors<F> = {};
    for (const f of fields) {
      const message = validate(f, values);
      if (message) found[f] = message;
    }
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

  /** Starts again from `next`, without messages. */
  const reset = (next: V) => {
    setValues(next);
    setErrors({});
    setServerError(null);
  };

  /**
   * Handles the form's submit event: checks every field, then saves. A failed
   * save shows the server's message (or `failedMessage`) and hands an NG
   * answer to `onFailed`.
   */
  const submit = async <T>(
    e: FormEvent<HTMLFormElement>,
    save: (values: V) => PromiseLike<SaveResult<T>>,
    onSaved: (saved: T, values: V) => void,
    onFailed?: (error: ApiError) => void,
  ) => {
    e.preventDefault();
    setServerError(null);
    if (!validateForm()) return;
    const result = await save(values);
    if (result.data !== undefined) {
      onSaved(result.data, values);
      return;
    }
    const error = isApiError(result.error) ? result.error : null;
    setServerError(error ? error.msg : failedMessage);
    if (error) onFailed?.(error);
  };

  const errorCount = Object.values(errors).filter(Boolean).length;

  return {
    values,
    errors,
    errorCount,
    serverError,
    idOf,
    bind,
    register,
    setValue,
    blur,
    focusField,
    validateForm,
    markServerError,
    reset,
    submit,
  };
};

/** What a field needs from a form that has (at least) the fields K. */
export type FormFields<K extends string> = Pick<
  ReturnType<typeof useValidatedForm<Record<K, string>>>,
  'values' | 'errors' | 'bind' | 'setValue'
>;
