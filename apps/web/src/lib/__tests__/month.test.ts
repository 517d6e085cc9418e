import { describe, expect, it } from 'vitest';
import {
  formatMonth,
  isMonth,
  japanMonth,
  recentMonths,
  shiftMonth,
} from '../month';

describe('month', () => {
  // 15:30 UTC on 31 March is already 1 April in Japan.
  it.each([
    ['2026-03-31T15:30:00.000Z', '2026-04'],
    ['2026-03-31T14:59:00.000Z', '2026-03'],
  ])('takes the Japan-time month of the instant %s', (instant, month) => {
    expect(japanMonth(new Date(instant))).toBe(month);
  });

  it.each([
    ['2026-01', -1, '2025-12'],
    ['2026-11', 2, '2027-01'],
  ])('moves %s by %d months across years', (month, by, shifted) => {
    expect(shiftMonth(month, by)).toBe(shifted);
  });

  it('writes months the Japanese way', () => {
    expect(formatMonth('2026-03')).toBe('2026年3月');
  });

  it.each([
    ['2026-12', true],
    ['2026-13', false],
    ['2026-3', false],
    [null, false],
  ])('accepts only YYYY-MM with a real month: %j', (value, accepted) => {
    expect(isMonth(value)).toBe(accepted);
  });

  it('offers this month and the ones before it, newest first', () => {
    expect(recentMonths(new Date('2026-02-10T00:00:00.000Z'), 3)).toEqual([
      '2026-02',
      '2026-01',
      '2025-12',
    ]);
  });
});
