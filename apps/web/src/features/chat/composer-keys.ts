import { MessageSendInputSchema } from '@proam/contract';
import { maxLengthOf, textLength } from '@/lib/contract-limits';
/** The parts of a keydown the composer looks at (React's or the DOM's event). */
export type ComposerKey = {
  key: string;
  shiftKey: boolean;
  /** `event.nativeEvent.isComposing` for a React event. */
  isComposing: boolean;
  /** 229 while an IME holds the key (Safari reports Enter this way). */
  keyCode: number;
};

export const IME_KEY_CODE = 229;

/**
 * Enter sends, Shift+Enter breaks the line, and Enter that confirms an IME
 * conversion (isComposing, or keyCode 229) never sends.
 */
export const composerKeyAction = (
  e: ComposerKey,
): 'send' | 'newline' | null => {
  if (e.key !== 'Enter') return null;
  if (e.isComposing || e.keyCode === IME_KEY_CODE) return null;
  return e.shiftKey ? 'newline' : 'send';
};

export const MESSAGE_MAX = maxLengthOf(MessageSendInputSchema.properties.msg);
/** The counter shows from here on. */
export const COUNTER_FROM = 1800;

export const canSend = (text: string): boolean =>
  textLength(text) > 0 && textLength(text) <= MESSAGE_MAX;
