import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatInstantDate,
  formatYenSuffix,
  groupDigits,
  toJapanDate,
} from '../format';

describe('format', () => {
  it.each([
    ['2026-11-22', '2026年11月22日(日)'],
    ['2026-01-05', '2026年1月5日(月)'],
  ])('writes %s the Japanese way with the weekday', (date, written) => {
    expect(formatDate(date)).toBe(written);
  });

  it('takes the Japan-time date of an instant', () => {
    expect(toJapanDate('2026-03-31T15:30:00.000Z')).toBe('2026-04-01');
    expect(formatInstantDate('2026-03-31T15:30:00.000Z')).toBe(
      '2026年4月1日(水)',
    );
  });

  it('writes yen with separators', () => {
    expect(formatYenSuffix(12000)).toBe('12,000円');
  });

  it.each([0, 7, 999, 1000, 12345, 1234567, -9876543, 1.5, 1234.25])(
    'groups the digits of %d as ja-JP does',
    (n) => {
      expect(groupDigits(n)).toBe(n.toLocaleString('ja-JP'));
    },
  );
});
