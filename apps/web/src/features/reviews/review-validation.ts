import {
  ReviewCreateInputSchema,
  ReviewReplyInputSchema,
} from '@proam/contract';
import { maxLengthOf, rangeOf, textLength } from '@/lib/contract-limits';

// The API's bounds.
export const [RATING_MIN, RATING_MAX] = rangeOf(
  ReviewCreateInputSchema.properties.rating,
);
export const COMMENT_MAX = maxLengthOf(
  ReviewCreateInputSchema.properties.comment,
);
export const REPLY_MAX = maxLengthOf(ReviewReplyInputSchema.properties.reply);

export const REVIEW_FIELDS = ['rating', 'comment'] as const;
export type ReviewField = (typeof REVIEW_FIELDS)[number];
export type ReviewValues = Record<ReviewField, string>;

export const validateReview = (
  field: ReviewField,
  values: ReviewValues,
): string | undefined => {
  if (field === 'rating') {
    const n = Number(values.rating);
    return values.rating === '' ||
      !Number.isInteger(n) ||
      n < RATING_MIN ||
      n > RATING_MAX
      ? `評価を★${RATING_MIN}〜★${RATING_MAX}から選んでください。`
      : undefined;
  }
  return textLength(values.comment) > COMMENT_MAX
    ? `コメントは${COMMENT_MAX}文字以内で入力してください。`
    : undefined;
};

export const REPLY_FIELDS = ['reply'] as const;
export type ReplyValues = Record<(typeof REPLY_FIELDS)[number], string>;

export const validateReply = (
  _field: 'reply',
  values: ReplyValues,
): string | undefined => {
  const n = textLength(values.reply);
  if (n === 0) return '返信を入力してください。';
  if (n > REPLY_MAX) return `返信は${REPLY_MAX}文字以内で入力してください。`;
  return undefined;
};

/** `★4.6`: the average to one decimal, as the API keeps it. */
export const formatRating = (average: number): string =>
  `★${average.toFixed(1)}`;
