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
  it('always fits the API’s bound, whichever kind, counted in code points', () => {
    const max = maxLengthOf(ReportCreateInputSchema.properties.reason);
    for (const kind of REPORT_KINDS) {
      const reason = reasonOf({ kind, details: '😀'.repeat(DETAILS_MAX) });
      expect([...reason].length).toBeLessThanOrEqual(max);
    }
    expect(
      validateReport('details', {
        kind: 'その他',
        details: '😀'.repeat(DETAILS_MAX),
      }),
    ).toBeUndefined();
    expect(
      validateReport('details', {
        kind: 'その他',
        details: '😀'.repeat(DETAILS_MAX + 1),
      }),
    ).toBe(`詳しい内容は${DETAILS_MAX}文字以内で入力してください。`);
  });

  it('is the kind alone without details', () => {
    expect(reasonOf({ kind: 'スパム・宣伝', details: '   ' })).toBe(
      'スパム・宣伝',
    );
  });
});
