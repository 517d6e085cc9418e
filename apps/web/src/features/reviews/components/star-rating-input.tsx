import type { Ref } from 'react';
import { RATING_MAX, RATING_MIN } from '../review-validation';

type StarRatingInputProps = {
  id: string;
  name: string;
  /** '' until a star is chosen. */
  value: string;
  error?: string;
  onChange: (value: string) => void;
  firstRef?: Ref<HTMLInputElement>;
};

const STARS = Array.from(
  { length: RATING_MAX - RATING_MIN + 1 },
  (_, i) => RATING_MIN + i,
);

/**
 * 評価 ★1〜★5 as native radio buttons in a fieldset: Tab reaches the group,
 * the arrow keys choose, and each star is named 「★3」 for screen readers.
 * The stars up to the chosen one are filled.
 */
export const StarRatingInput = ({
  id,
  name,
  value,
  error,
  onChange,
  firstRef,
}: StarRatingInputProps) => {
  const chosen = Number(value) || 0;
  return (
    <fieldset
      className="form-field form-fieldset star-input"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="form-field__label">
        評価
        <span className="badge-required">必須</span>
      </legend>
      <div className="star-input__stars">
        {STARS.map((n) => (
          <label
            key={n}
            className={`star-input__star${n <= chosen ? ' is-on' : ''}`}
          >
            <input
              type="radio"
              className="star-input__radio"
              name={name}
              value={String(n)}
              checked={chosen === n}
              required
              aria-invalid={error ? true : undefined}
              ref={n === RATING_MIN ? firstRef : undefined}
              onChange={() => onChange(String(n))}
            />
            <span aria-hidden="true" className="star-input__glyph">
              ★
            </span>
            <span className="visually-hidden">★{n}</span>
          </label>
        ))}
        <span className="star-input__value" aria-hidden="true">
          {chosen ? `${chosen} / ${RATING_MAX}` : '未選択'}
        </span>
      </div>
      {error && (
        <p id={`${id}-error`} className="form-field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
};
