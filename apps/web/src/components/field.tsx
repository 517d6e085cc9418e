import type { ReactNode } from 'react';

/** What a field's control needs to be tied to its label, hint and error. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type FieldProps = {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  /** Renders the control (input, select, textarea) with the given props. */
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * A labelled form control with 必須/任意, a hint and an error message wired
 * through aria-describedby, in the same look as the contact form.
 */
export const Field = ({
  id,
  label,
  required = false,
  error,
  hint,
  children,
}: FieldProps) => {
  const describedBy =
    [error ? `${id}-error` : '', hint ? `${id}-hint` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div className="form-field">
      <label htmlFor={id} className="form-field__label">
        {label}
        <span className={required ? 'badge-required' : 'badge-optional'}>
          {required ? '必須' : '任意'}
        </span>
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {hint && (
        <p id={`${id}-hint`} className="form-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-field__error">
          {error}
        </p>
      )}
    </div>
  );
};
