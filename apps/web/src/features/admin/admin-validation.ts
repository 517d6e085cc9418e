import {
  AdminUsersInputSchema,
  ReportResolveInputSchema,
  SuspendInputSchema,
} from '@proam/contract';
import { maxLengthOf, textLength } from '@/lib/contract-limits';

// The API's bounds.
export const KEYWORD_MAX = maxLengthOf(
  AdminUsersInputSchema.properties.keyword,
);
export const SUSPEND_REASON_MAX = maxLengthOf(
  SuspendInputSchema.properties.reason,
);
export const RESOLUTION_MAX = maxLengthOf(
  ReportResolveInputSchema.properties.resolution,
);

export const SEARCH_FIELDS = ['keyword', 'type', 'verified'] as const;
export type SearchValues = Record<(typeof SEARCH_FIELDS)[number], string>;

export const validateSearch = (
  field: (typeof SEARCH_FIELDS)[number],
  values: SearchValues,
): string | undefined => {
  if (field !== 'keyword') return undefined;
  if (textLength(values.keyword) > KEYWORD_MAX)
    return `キーワードは${KEYWORD_MAX}文字以内で入力してください。`;
  return undefined;
};

/** The API takes the reason as optional; the company always records one. */
export const validateSuspend = (reason: string): string | undefined => {
  const n = textLength(reason);
  if (n === 0) return '利用停止の理由を入力してください。';
  if (n > SUSPEND_REASON_MAX)
    return `利用停止の理由は${SUSPEND_REASON_MAX}文字以内で入力してください。`;
  return undefined;
};

/** 対応内容's message, or undefined when it can be sent. */
export const validateResolve = (resolution: string): string | undefined => {
  const n = textLength(resolution);
  if (n === 0) return '対応内容を入力してください。';
  if (n > RESOLUTION_MAX)
    return `対応内容は${RESOLUTION_MAX}文字以内で入力してください。`;
  return undefined;
};
