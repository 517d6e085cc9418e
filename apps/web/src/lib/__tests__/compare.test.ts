import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../compare';

/** A ULID-shaped key: ten time characters, then sixteen random ones, Crockford base32. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = (i: number) =>
  Array.from(
    { length: 26 },
    (_, k) => CROCKFORD[(i * 7919 + k * 104729 + i * k) % 32],
  ).join('');

describe('compareCodeUnits', () => {
  it('orders the keys the app sorts as localeCompare did', () => {
    const keys = [
      Array.from({ length: 200 }, (_, i) => ulid(i)),
      Array.from(
        { length: 200 },
        (_, i) =>
          `20${String(20 + (i % 13)).padStart(2, '0')}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 7) % 28)).padStart(2, '0')}`,
      ),
      Array.from(
        { length: 96 },
        (_, i) =>
          `${String((i * 5) % 24).padStart(2, '0')}:${String((i * 15) % 60).padStart(2, '0')}`,
      ),
    ];
    for (const list of keys) {
      const ours = [...list].sort(compareCodeUnits);
      expect(ours).toEqual([...list].sort((a, b) => a.localeCompare(b)));
      // A real order: no two different keys compare equal, and it is antisymmetric.
      for (let i = 1; i < ours.length; i++) {
        expect(compareCodeUnits(ours[i - 1]!, ours[i]!)).toBeLessThanOrEqual(0);
        expect(compareCodeUnits(ours[i]!, ours[i - 1]!)).toBe(
          ours[i] === ours[i - 1] ? 0 : 1,
        );
      }
    }
  });
});
