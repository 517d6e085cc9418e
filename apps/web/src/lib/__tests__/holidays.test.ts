import { describe, expect, it } from 'vitest';
import { loadHolidays } from '../holidays';

describe('loadHolidays', () => {
  it('gives the year’s 祝日 by date, substitute holidays included', async () => {
    const y2026 = await loadHolidays(2026);
    expect(y2026.get('2026-11-23')).toBe('勤労感謝の日');
    expect(y2026.get('2026-05-06')).toBe('こどもの日 振替休日');
    expect(y2026.get('2026-11-24')).toBeUndefined();
    // Only that year: the next year's holidays are a separate load.
    expect(y2026.get('2027-01-01')).toBeUndefined();
    expect([...y2026.keys()].every((d) => d.startsWith('2026-'))).toBe(true);
    const y2027 = await loadHolidays(2027);
    expect(y2027.get('2027-01-11')).toBe('成人の日');
  });

  it('loads a year once', async () => {
    const [a, b] = await Promise.all([loadHolidays(2028), loadHolidays(2028)]);
    expect(a).toBe(b);
    expect(await loadHolidays(2028)).toBe(a);
    expect(a.size).toBeGreaterThan(14);
  });

  it('marks nothing for a year without data', async () => {
    expect((await loadHolidays(2019)).size).toBe(0);
    expect((await loadHolidays(2036)).size).toBe(0);
  });
});
