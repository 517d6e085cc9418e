import { useId, useRef, useState, type FormEvent } from 'react';
import { isApiError } from '@/lib/api-error';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What an RTK Query mutation trigger resolves to. */
type SaveResult<T> = { data?: T; error?: unknown };

type ValidatedFormOptions<V> = {
  initialValues: () => V;
  validate: (values: V) => Partial<Record<keyof V, string>>;
  /** The fields in screen order: the first invalid one gets the focus. */
  fields: readonly (keyof V & string)[];
};

const SAVE_FAILED_MSG =
  '保存できませんでした。時間をおいて再度お試しください。';

/**
 * The state of an admin create/edit form whose fields are all text. Input is
 * kept on errors, and a field shown as invalid is checked again as it is
 * edited, so its message goes away as soon as it is fixed.
 */
export const useValidatedForm = <V extends Record<keyof V, string>>({
  initialValues,
  validate,
  fields,
}: ValidatedFormOptions<V>) => {
  type Field = keyof V & string;
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const baseId = useId();
  const refs = useRef<Partial<Record<Field, Control | null>>>({});

  const idOf = (field: Field) => `${baseId}-${field}`;

  const set = (field: Field, value: string) => {
    const next: V = { ...values, [field]: value };
    setValues(next);
    if (errors[field])
      setErrors((prev) => ({ ...prev, [field]: validate(next)[field] }));
  };

  /** The props that tie a control to one field. */
  const bind = (field: Field) => ({
    name: field,
    value: values[field],
    onChange: (e: { target: { value: string } }) => set(field, e.target.value),
    ref: (el: Control | null) => {
      refs.current[field] = el;
    },
  });

  /**
   * Handles the form's submit event: checks every field, then saves. A failed
   * save shows the server's message, or a generic one when there is none.
   */
  const submit = async <T>(
    e: FormEvent<HTMLFormElement>,
    save: (values: V) => Promise<SaveResult<T>>,
    onSaved: (saved: T, values: V) => void,
  ) => {
    e.preventDefault();
    setServerError(null);
    const errs = validate(values);
    setErrors(errs);
    const first = fields.find((f) => errs[f]);
    if (first) {
      refs.current[first]?.focus();
      return;
    }
    const result = await save(values);
    if (result.data !== undefined) {
      onSaved(result.data, values);
      return;
    }
    setServerError(
      isApiError(result.error) ? result.error.msg : SAVE_FAILED_MSG,
    );
  };

  const errorCount = Object.values(errors).filter(Boolean).length;

  return { values, errors, errorCount, serverError, idOf, bind, submit };
};
