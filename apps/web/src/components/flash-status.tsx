import type { Ref } from 'react';

type FlashStatusProps = {
  message: string;
  /** Given: the line can take the focus, so a finished action can move it there. */
  ref?: Ref<HTMLParagraphElement>;
};

/**
 * What an admin action just did. The status region stays in the document,
 * hidden while empty, so screen readers announce each new message.
 */
export const FlashStatus = ({ message, ref }: FlashStatusProps) => (
  <p
    ref={ref}
    tabIndex={ref ? -1 : undefined}
    role="status"
    className={message ? 'flash' : 'visually-hidden'}
  >
    {message}
  </p>
);

type StatusNoticeProps = {
  /** Nothing is shown without one. */
  text: string | undefined;
  className: string;
  /** Its owner moves the focus here once it is shown. */
  ref: Ref<HTMLParagraphElement>;
};

/** What a member's action just did, shown in place of what went away. */
export const StatusNotice = ({ text, className, ref }: StatusNoticeProps) =>
  text === undefined ? null : (
    <p ref={ref} tabIndex={-1} className={className} role="status">
      {text}
    </p>
  );
