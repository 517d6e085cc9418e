import type { FocusEventHandler, Ref } from 'react';
import { LegalLink } from './terms-gate';

type TermsConsentProps = {
  id: string;
  checked: boolean;
  error?: string;
  onChange: (checked: boolean) => void;
  onBlur: FocusEventHandler<HTMLInputElement>;
  inputRef: Ref<HTMLInputElement>;
};

/**
 * The registration's required agreement: one checkbox, the two texts one
 * click away in a new tab (what is typed stays on the form), and the
 * message tied to the box.
 */
export const TermsConsent = ({
  id,
  checked,
  error,
  onChange,
  onBlur,
  inputRef,
}: TermsConsentProps) => (
  <div className="form-field terms-consent">
    <div
      className="terms-consent__row"
      data-invalid={error ? 'true' : undefined}
    >
      <input
        id={id}
        ref={inputRef}
        type="checkbox"
        name="terms"
        checked={checked}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={[error && `${id}-error`, `${id}-links`]
          .filter(Boolean)
          .join(' ')}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={onBlur}
      />
      <label htmlFor={id} className="terms-consent__label">
        利用規約とプライバシーポリシーに同意する
        <span className="badge-required">必須</span>
      </label>
    </div>
    <p id={`${id}-links`} className="terms-consent__links">
      <LegalLink to="/terms" label="利用規約" />
      <LegalLink to="/privacy" label="プライバシーポリシー" />
    </p>
    {error && (
      <p id={`${id}-error`} className="form-field__error">
        {error}
      </p>
    )}
  </div>
);
