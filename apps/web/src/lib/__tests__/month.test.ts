import { describe, expect, it } from 'vitest';
import {
  formatMonth,
  isMonth,
  japanMonth,
  recentMonths,
  shiftMonth,
} from '../month';

describe('month', () => {
  it('takes the Japan-time month of an instant', () => {
    // 15:30 UTC on 31 March is already 1 April in Japan.
    expect(japanMonth(new Date('2026-03-31T15:30:00.000Z'))).toBe('2026-04');
    expect(japanMonth(new Date('2026-03-31T14:59:00.000Z'))).toBe('2026-03');
  });

  it('moves across years and writes months the Japanese way', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-11', 2)).toBe('2027-01');
    expect(formatMonth('2026-03')).toBe('2026年3月');
  });

  it('accepts only YYYY-MM with a real month', () => {
    expect(isMonth('2026-12')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
    expect(isMonth('2026-3')).toBe(false);
    expect(isMonth(null)).toBe(false);
  });

  it('offers this month and the ones before it, newest first', () => {
    expect(recentMonths(new Date('2026-02-10T00:00:00.000Z'), 3)).toEqual([
      '2026-02',
      '2026-01',
      '2025-12',
    ]);
  });
});
