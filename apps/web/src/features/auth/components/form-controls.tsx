import { useState, type InputHTMLAttributes, type Ref } from 'react';

const describedBy = (...ids: (string | false | undefined)[]) =>
  ids.filter(Boolean).join(' ') || undefined;

type FieldShellProps = {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: string;
  children: React.ReactNode;
};

const Label = ({
  id,
  label,
  required,
}: Pick<FieldShellProps, 'id' | 'label' | 'required'>) => (
  <label htmlFor={id} className="form-field__label">
    {label}
    <span className={required ? 'badge-required' : 'badge-optional'}>
      {required ? '必須' : '任意'}
    </span>
  </label>
);

const Messages = ({
  id,
  error,
  hint,
}: Pick<FieldShellProps, 'id' | 'error' | 'hint'>) => (
  <>
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
  </>
);

type TextFieldProps = {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Extra content beside the input (e.g. a show/hide button). */
  addon?: React.ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required'>;

/** A labelled input with its hint and error wired through aria-describedby. */
export const TextField = ({
  id,
  label,
  required = false,
  error,
  hint,
  inputRef,
  addon,
  ...input
}: TextFieldProps) => {
  const control = (
    <input
      id={id}
      ref={inputRef}
      required={required}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(
        error && `${id}-error`,
        hint && `${id}-hint`,
      )}
      {...input}
    />
  );
  return (
    <div className="form-field">
      <Label id={id} label={label} required={required} />
      {addon ? (
        <div className="input-with-addon">
          {control}
          {addon}
        </div>
      ) : (
        control
      )}
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
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

type SelectFieldProps = {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: string;
  value: string;
  options: readonly string[];
  placeholder: string;
  name?: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  selectRef?: Ref<HTMLSelectElement>;
};

export const SelectField = ({
  id,
  label,
  required = false,
  error,
  hint,
  value,
  options,
  placeholder,
  name,
  onChange,
  onBlur,
  selectRef,
}: SelectFieldProps) => (
  <div className="form-field">
    <Label id={id} label={label} required={required} />
    <select
      id={id}
      name={name}
      ref={selectRef}
      value={value}
      required={required}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(
        error && `${id}-error`,
        hint && `${id}-hint`,
      )}
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
    >
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
    <Messages id={id} error={error} hint={hint} />
  </div>
);

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
    <Messages id={id} error={error} />
  </fieldset>
);
