type SubmitButtonProps = { label: string } & (
  { busy?: undefined } | { busy: boolean; busyLabel: string }
);

/** A form's main button; while its call runs it is disabled and says what is happening. */
export const SubmitButton = (props: SubmitButtonProps) => (
  <button
    type="submit"
    className="button button--primary button--wide"
    disabled={props.busy}
  >
    {props.busy ? props.busyLabel : props.label}
  </button>
);
