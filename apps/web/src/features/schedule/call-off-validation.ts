import { CallOffInputSchema } from '@proam/contract';
import { maxLengthOf, minLengthOf, textLength } from '@/lib/contract-limits';

// The API's bounds.
const reason = CallOffInputSchema.properties.reason;
export const REASON_MIN = minLengthOf(reason);
export const REASON_MAX = maxLengthOf(reason);

/** 中止の理由's message, or undefined when it can be sent. */
export const validateCallOff = (reason: string): string | undefined => {
  const n = textLength(reason);
  if (n < REASON_MIN) return '中止の理由を入力してください。';
  if (n > REASON_MAX)
    return `中止の理由は${REASON_MAX}文字以内で入力してください。`;
  return undefined;
};
