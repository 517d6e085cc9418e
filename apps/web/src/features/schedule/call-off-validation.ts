import { CallOffInputSchema } from '@proam/contract';
import { maxLengthOf, minLengthOf, textLength } from '@/lib/contract-limits';

// The API's bounds.
const reason = CallOffInputSchema.properties.reason;
export const REASON_MIN = minLengthOf(reason);
export const REASON_MAX = maxLengthOf(reason);

export const CALL_OFF_FIELDS = ['reason'] as const;
export type CallOffValues = Record<(typeof CALL_OFF_FIELDS)[number], string>;

export const validateCallOff = (
  _field: 'reason',
  values: CallOffValues,
): string | undefined => {
  const n = textLength(values.reason);
  if (n < REASON_MIN) return '中止の理由を入力してください。';
  if (n > REASON_MAX)
    return `中止の理由は${REASON_MAX}文字以内で入力してください。`;
  return undefined;
};
