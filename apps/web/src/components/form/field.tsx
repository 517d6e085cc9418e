import {
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { textLength } from '@/lib/contract-limits';

/** What a field's control needs to be tied to its label, hint and error. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type Counter = {
  /** The text as typed; counted as the API counts it, once trimmed. */
  value: string;
  max: number;
  /** The counter's text, `12 / 500文字` unless given. */
  format?: (count: number, max: number) => string;
};

type FieldShellProps = {
  id: string;
  label: string;
  required?: boolean;
  /** No 必須/任意 beside the label (search conditions). */
  noBadge?: boolean;
  error?: string;
  hint?: ReactNode;
  /** A live character count under the control. */
  counter?: Counter;
  /** Extra content beside the control (e.g. a show/hide button). */
  addon?: ReactNode;
};

type FieldProps = FieldShellProps & {
  /** Renders the control (input, select, textarea) with the given props. */
  children: (control: FieldControlProps) => ReactNode;
};

const describedBy = (...ids: (string | false | undefined)[]) =>
  ids.filter(Boolean).join(' ') || undefined;

const ErrorMessage = ({ id, error }: { id: string; error?: string }) =>
  error ? (
    <p id={`${id}-error`} className="form-field__error">
      {error}
    </p>
  ) : null;

const defaultCount = (count: number, max: number) => `${count} / ${max}文字`;

/**
 * A labelled form control with 必須/任意, a hint, a character counter and an
 * error message, all wired through aria-describedby.
 */
export const Field = ({
  id,
  label,
  required = false,
  noBadge = false,
  error,
  hint,
  counter,
  addon,
  children,
}: FieldProps) => {
  const count = counter ? textLength(counter.value) : 0;
  const control = children({
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(
      error && `${id}-error`,
      hint ? `${id}-hint` : undefined,
      counter && `${id}-counter`,
    ),
  });
  return (
    <div className="form-field">
      <label htmlFor={id} className="form-field__label">
        {label}
        {!noBadge && (
          <span className={required ? 'badge-required' : 'badge-optional'}>
            {required ? '必須' : '任意'}
          </span>
        )}
      </label>
      {addon ? (
        <div className="input-with-addon">
          {control}
          {addon}
        </div>
      ) : (
        control
      )}
      {hint && (
        <p id={`${id}-hint`} className="form-field__hint">
          {hint}
        </p>
      )}
      {counter && (
        <p
          id={`${id}-counter`}
          className={`form-field__counter${count > counter.max ? ' is-over' : ''}`}
        >
          {(counter.format ?? defaultCount)(count, counter.max)}
        </p>
      )}
      <ErrorMessage id={id} error={error} />
    </div>
  );
};

/**
 * A wrapper's props, split into the shell's (label, hint, messages) and its
 * control's own, which keeps `required`.
 */
const split = <P extends FieldShellProps>({
  id,
  label,
  required = false,
  noBadge,
  error,
  hint,
  counter,
  addon,
  ...control
}: P) => ({
  shell: { id, label, required, noBadge, error, hint, counter, addon },
  control: { ...control, required },
});

type TextFieldProps = Omit<FieldShellProps, 'counter'> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required'> & {
    ref?: Ref<HTMLInputElement>;
  };

/** A labelled input. */
export const TextField = (props: TextFieldProps) => {
  const { shell, control } = split(props);
  return <Field {...shell}>{(p) => <input {...p} {...control} />}</Field>;
};

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'addon'>;

/** A password input with a 表示/非表示 toggle, so people can check what they typed. */
export const PasswordField = (props: PasswordFieldProps) => {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      autoCapitalize="off"
      spellCheck={false}
      addon={
        <button
          type="button"
          className="input-addon-button"
          aria-controls={props.id}
          aria-pressed={visible}
          aria-label={`${props.label}を表示`}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? '非表示' : '表示'}
        </button>
      }
    />
  );
};

type SelectFieldProps = Omit<FieldShellProps, 'counter' | 'addon'> &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'required'> & {
    ref?: Ref<HTMLSelectElement>;
    /** Plain strings show as they are sent. */
    options: readonly (string | SelectOption)[];
    /** The first, empty choice, if there is one. */
    placeholder?: string;
  };

export type SelectOption = { value: string; label: string };

const optionOf = (o: string | SelectOption): SelectOption =>
  typeof o === 'string' ? { value: o, label: o } : o;

/** A labelled select, after an empty first choice when a placeholder is given. */
export const SelectField = ({
  options,
  placeholder,
  ...props
}: SelectFieldProps) => {
  const { shell, control } = split(props);
  return (
    <Field {...shell}>
      {(p) => (
        <select {...p} {...control}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map(optionOf).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
};

type TextAreaFieldProps = Omit<FieldShellProps, 'counter' | 'addon'> &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'required'> & {
    ref?: Ref<HTMLTextAreaElement>;
    value: string;
    /** The API's limit, counted live under the box. */
    max: number;
    counterFormat?: Counter['format'];
  };

/** A labelled textarea with a live character counter. */
export const TextAreaField = ({
  max,
  counterFormat,
  ...props
}: TextAreaFieldProps) => {
  const { shell, control } = split(props);
  const counter = { value: props.value, max, format: counterFormat };
  return (
    <Field {...shell} counter={counter}>
      {(p) => <textarea {...p} {...control} />}
    </Field>
  );
};

type RadioGroupProps = {
  id: string;
  legend: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string; description?: string }[];
  error?: string;
  onChange: (value: string) => void;
  firstRef?: Ref<HTMLInputElement>;
};

/** Required radio buttons in a fieldset; the error is announced with the group. */
export const RadioGroup = ({
  id,
  legend,
  name,
  value,
  options,
  error,
  onChange,
  firstRef,
}: RadioGroupProps) => (
  <fieldset
    className="form-field form-fieldset"
    aria-describedby={error ? `${id}-error` : undefined}
  >
    <legend className="form-field__label">
      {legend}
      <span className="badge-required">必須</span>
    </legend>
    <div className="radio-cards">
      {options.map((o, i) => (
        <label key={o.value} className="radio-card">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            ref={i === 0 ? firstRef : undefined}
            onChange={() => onChange(o.value)}
          />
          <span className="radio-card__text">
            <span className="radio-card__label">{o.label}</span>
            {o.description && (
              <span className="radio-card__description">{o.description}</span>
            )}
          </span>
        </label>
      ))}
    </div>
    <ErrorMessage id={id} error={error} />
  </fieldset>
);
