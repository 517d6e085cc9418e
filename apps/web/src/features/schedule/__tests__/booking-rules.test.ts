import { describe, expect, it } from 'vitest';
import {
  createLesson,
  createMyReservation,
  createReservedLesson,
} from '@/testing/factories';
import {
  formatCancelDeadline,
  hasStarted,
  isReservedBy,
  mapSearchUrl,
} from '../booking-rules';

describe('booking rules', () => {
  it.each([
    ['2026-11-29', '11月28日(土) 23:59'],
    // Across a month and a year.
    ['2026-12-01', '11月30日(月) 23:59'],
    ['2027-01-01', '12月31日(木) 23:59'],
    ['2028-03-01', '2月29日(火) 23:59'],
  ])(
    'writes the deadline of a lesson on %s as the day before at 23:59, with the weekday in Japanese',
    (date, deadline) => {
      expect(formatCancelDeadline(date)).toBe(deadline);
    },
  );

  it.each([
    ['a reservation of its own', createReservedLesson('L1'), true],
    [
      'a cancelled reservation, though among the participants',
      createReservedLesson('L1', {
        myReservation: createMyReservation({ status: 'cancelled' }),
      }),
      false,
    ],
    [
      'a pending reservation, not yet among the participants',
      createLesson('L1', {
        participants: [],
        myReservation: createMyReservation({ status: 'pending' }),
      }),
      true,
    ],
    [
      'no reservation, among the participants',
      createLesson('L1', { participants: ['u-1'] }),
      true,
    ],
    ['neither', createLesson('L1'), false],
  ])(
    'knows a reservation by myReservation, else by the participants: %s',
    (_, lesson, reserved) => {
      expect(isReservedBy(lesson, 'u-1')).toBe(reserved);
    },
  );

  it.each([
    ['2026-11-27T23:59:00Z', false],
    ['2026-11-28T00:00:00Z', true],
  ])(
    'says a lesson has started from its start time in Japan (at %s: %s)',
    (now, started) => {
      const lesson = createLesson('L1', {
        date: '2026-11-28',
        startTime: '09:00',
      });
      expect(hasStarted(lesson, Date.parse(now))).toBe(started);
    },
  );

  it('builds a map search for the place', () => {
    expect(mapSearchUrl('府中 CC')).toBe(
      'https://www.google.com/maps/search/?api=1&query=%E5%BA%9C%E4%B8%AD%20CC',
    );
  });
});
