type FormActionsProps = {
  /** A save is in flight: both buttons are disabled and the submit one says 保存中…. */
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
};

/** The submit and キャンセル buttons under an edit form. */
export const FormActions = ({
  busy,
  submitLabel,
  onCancel,
}: FormActionsProps) => (
  <div className="button-row">
    <button type="submit" className="button button--primary" disabled={busy}>
      {busy ? '保存中…' : submitLabel}
    </button>
    <button
      type="button"
      className="button button--outline"
      onClick={onCancel}
      disabled={busy}
    >
      キャンセル
    </button>
  </div>
);

type SubmitButtonProps = { label: string } & (
  { busy?: undefined } | { busy: boolean; busyLabel: string }
);

/** A form's main, wide button; while its call runs it is disabled and says what is happening. */
export const SubmitButton = (props: SubmitButtonProps) => (
  <button
    type="submit"
    className="button button--primary button--wide"
    disabled={props.busy}
  >
    {props.busy ? props.busyLabel : props.label}
  </button>
);
