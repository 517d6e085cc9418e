import { ReportCreateInputSchema } from '@proam/contract';
import { maxLengthOf, textLength } from '@/lib/contract-limits';

// The API's bound for the whole reason (the chosen kind and the details).
export const REASON_MAX = maxLengthOf(
  ReportCreateInputSchema.properties.reason,
);

/** What the member picks first; the details are free text. */
export const REPORT_KINDS = [
  '不適切な内容・表現',
  '嫌がらせ・迷惑行為',
  'スパム・宣伝',
  'なりすまし・虚偽の内容',
  '個人情報の掲載',
  'その他',
] as const;

export const REPORT_FIELDS = ['kind', 'details'] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];
export type ReportValues = Record<ReportField, string>;

/** The `reason` sent: 「スパム・宣伝：詳細」, or the kind alone. */
export const reasonOf = (values: ReportValues): string => {
  const details = values.details.trim();
  return details ? `${values.kind}：${details}` : values.kind;
};

/**
 * Room for the details: what is left of the API's bound once the longest
 * kind and 「：」 are counted, so the limit does not move with the choice.
 */
export const DETAILS_MAX =
  REASON_MAX - Math.max(...REPORT_KINDS.map((k) => textLength(k))) - 1;

export const validateReport = (
  field: ReportField,
  values: ReportValues,
): string | undefined => {
  if (field === 'kind')
    return (REPORT_KINDS as readonly string[]).includes(values.kind)
      ? undefined
      : '通報の理由を選択してください。';
  const n = textLength(values.details);
  if (values.kind === 'その他' && n === 0)
    return '「その他」を選んだ場合は、内容を入力してください。';
  return n > DETAILS_MAX
    ? `詳しい内容は${DETAILS_MAX}文字以内で入力してください。`
    : undefined;
};
