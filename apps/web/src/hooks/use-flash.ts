import { useRef, useState } from 'react';

/**
 * The message of a `FlashStatus`, and `announce`, which shows one and moves
 * the focus to it once rendered (after a form or dialog that had it closes).
 */
export const useFlash = () => {
  const [message, setMessage] = useState('');
  const ref = useRef<HTMLParagraphElement>(null);
  const announce = (text: string) => {
    setMessage(text);
    window.setTimeout(() => ref.current?.focus(), 0);
  };
  return { message, setMessage, announce, ref };
};
