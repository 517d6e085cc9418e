import { describe, expect, it } from 'vitest';
import { ReportCreateInputSchema } from '@proam/contract';
import { maxLengthOf } from '@/lib/contract-limits';
import {
  DETAILS_MAX,
  reasonOf,
  REPORT_KINDS,
  validateReport,
} from '../report-validation';

describe('the report reason', () => {
  it.each(REPORT_KINDS)(
    'always fits the API’s bound, counted in code points, for %s',
    (kind) => {
      const max = maxLengthOf(ReportCreateInputSchema.properties.reason);
      const reason = reasonOf({ kind, details: '😀'.repeat(DETAILS_MAX) });
      expect([...reason].length).toBeLessThanOrEqual(max);
    },
  );

  it.each([
    [DETAILS_MAX, undefined],
    [DETAILS_MAX + 1, `詳しい内容は${DETAILS_MAX}文字以内で入力してください。`],
  ])('checks details of %d emoji against that bound', (length, error) => {
    expect(
      validateReport('details', {
        kind: 'その他',
        details: '😀'.repeat(length),
      }),
    ).toBe(error);
  });

  it('is the kind alone without details', () => {
    expect(reasonOf({ kind: 'スパム・宣伝', details: '   ' })).toBe(
      'スパム・宣伝',
    );
  });
});
