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
  it('writes the deadline as the day before at 23:59, with the weekday in Japanese', () => {
    expect(formatCancelDeadline('2026-11-29')).toBe('11月28日(土) 23:59');
    // Across a month and a year.
    expect(formatCancelDeadline('2026-12-01')).toBe('11月30日(月) 23:59');
    expect(formatCancelDeadline('2027-01-01')).toBe('12月31日(木) 23:59');
    expect(formatCancelDeadline('2028-03-01')).toBe('2月29日(火) 23:59');
  });

  it('knows a reservation by myReservation, else by the participants', () => {
    expect(isReservedBy(createReservedLesson('L1'), 'u-1')).toBe(true);
    expect(
      isReservedBy(
        createReservedLesson('L1', {
          myReservation: createMyReservation({ status: 'cancelled' }),
        }),
        'u-1',
      ),
    ).toBe(false);
    expect(
      isReservedBy(
        createLesson('L1', {
          participants: [],
          myReservation: createMyReservation({ status: 'pending' }),
        }),
        'u-1',
      ),
    ).toBe(true);
    expect(
      isReservedBy(createLesson('L1', { participants: ['u-1'] }), 'u-1'),
    ).toBe(true);
    expect(isReservedBy(createLesson('L1'), 'u-1')).toBe(false);
  });

  it('says a lesson has started from its start time in Japan', () => {
    const lesson = createLesson('L1', {
      date: '2026-11-28',
      startTime: '09:00',
    });
    expect(hasStarted(lesson, Date.parse('2026-11-27T23:59:00Z'))).toBe(false);
    expect(hasStarted(lesson, Date.parse('2026-11-28T00:00:00Z'))).toBe(true);
  });

  it('builds a map search for the place', () => {
    expect(mapSearchUrl('府中 CC')).toBe(
      'https://www.google.com/maps/search/?api=1&query=%E5%BA%9C%E4%B8%AD%20CC',
    );
  });
});
