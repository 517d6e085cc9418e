import type { ButtonHTMLAttributes } from 'react';

type BusyButtonProps = Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'children' | 'type'
> & {
  type?: 'button' | 'submit';
  /** Its call is under way: it says `busyLabel` and, unless `disabled` says otherwise, is disabled. */
  busy: boolean;
  busyLabel: string;
  label: string;
};

/** A button whose text says what is happening while its call runs. */
export const BusyButton = ({
  type = 'button',
  busy,
  busyLabel,
  label,
  disabled = busy,
  ...rest
}: BusyButtonProps) => (
  <button type={type} disabled={disabled} {...rest}>
    {busy ? busyLabel : label}
  </button>
);

type FormActionsProps = {
  /** A save is in flight: both buttons are disabled and the submit one says `busyLabel`. */
  busy: boolean;
  submitLabel: string;
  busyLabel?: string;
  onCancel: () => void;
};

/** The submit and キャンセル buttons under an edit form. */
export const FormActions = ({
  busy,
  submitLabel,
  busyLabel = '保存中…',
  onCancel,
}: FormActionsProps) => (
  <div className="button-row">
    <BusyButton
      type="submit"
      className="button button--primary"
      busy={busy}
      busyLabel={busyLabel}
      label={submitLabel}
    />
    <CancelButton busy={busy} onCancel={onCancel} />
  </div>
);

type CancelButtonProps = {
  label?: string;
  /** The action is under way: too late to back out. */
  busy: boolean;
  onCancel: () => void;
};

/** The outlined way back beside a form's or a dialog's main button. */
export const CancelButton = ({
  label = 'キャンセル',
  busy,
  onCancel,
}: CancelButtonProps) => (
  <button
    type="button"
    className="button button--outline"
    disabled={busy}
    onClick={onCancel}
  >
    {label}
  </button>
);

type SubmitButtonProps = { label: string } & (
  { busy?: undefined } | { busy: boolean; busyLabel: string }
);

/** A form's main, wide button; while its call runs it is disabled and says what is happening. */
export const SubmitButton = (props: SubmitButtonProps) => (
  <BusyButton
    type="submit"
    className="button button--primary button--wide"
    busy={props.busy ?? false}
    busyLabel={props.busy === undefined ? props.label : props.busyLabel}
    label={props.label}
  />
);

type LoadMoreProps = {
  /** The row around the button. */
  className: string;
  wide?: boolean;
  loading: boolean;
  onLoad: () => unknown;
};

/** もっと見る under a paged list: the next page, with 読み込み中… while it comes. */
export const LoadMore = ({
  className,
  wide = false,
  loading,
  onLoad,
}: LoadMoreProps) => (
  <div className={className}>
    <BusyButton
      className={`button button--outline${wide ? ' button--wide' : ''}`}
      busy={loading}
      busyLabel="読み込み中…"
      label="もっと見る"
      onClick={() => void onLoad()}
    />
  </div>
);

type SearchActionsProps = { submitLabel: string; onClear: () => void };

/** Under a search form: run it, or start again from no conditions. */
export const SearchActions = ({ submitLabel, onClear }: SearchActionsProps) => (
  <div className="button-row">
    <button type="submit" className="button button--primary">
      {submitLabel}
    </button>
    <button type="button" className="button button--outline" onClick={onClear}>
      条件をクリア
    </button>
  </div>
);

/** 再読み込み: loads the whole page again (after an error, or to fetch the newest code). */
export const ReloadPageButton = ({ className }: { className: string }) => (
  <button
    type="button"
    className={className}
    onClick={() => window.location.reload()}
  >
    再読み込み
  </button>
);
