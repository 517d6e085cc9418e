import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import {
  addMonths,
  dateForKey,
  formatYearMonth,
  monthGrid,
  type YearMonth,
} from '../calendar';
import { MonthCalendar } from '../components/month-calendar';

describe('monthGrid', () => {
  it('starts 2026年11月 on Sunday with no padding and 5 weeks', () => {
    const weeks = monthGrid({ year: 2026, month: 11 });
    expect(weeks).toHaveLength(5);
    expect(weeks[0]?.[0]).toEqual({ date: '2026-11-01', day: 1, weekday: 0 });
    expect(weeks[4]?.[1]?.date).toBe('2026-11-30');
    expect(weeks[4]?.slice(2)).toEqual([null, null, null, null, null]);
  });

  it('pads the first week of 2026年12月 (a Tuesday) with two blanks', () => {
    const weeks = monthGrid({ year: 2026, month: 12 });
    expect(weeks[0]?.slice(0, 3)).toEqual([
      null,
      null,
      { date: '2026-12-01', day: 1, weekday: 2 },
    ]);
  });

  it('moves across months and years', () => {
    expect(addMonths({ year: 2026, month: 12 }, 1)).toEqual({
      year: 2027,
      month: 1,
    });
    expect(addMonths({ year: 2026, month: 1 }, -1)).toEqual({
      year: 2025,
      month: 12,
    });
    expect(formatYearMonth({ year: 2026, month: 11 })).toBe('2026年11月');
    expect(dateForKey('ArrowRight', '2026-11-30')).toBe('2026-12-01');
    expect(dateForKey('ArrowUp', '2026-11-03')).toBe('2026-10-27');
    expect(dateForKey('PageDown', '2027-01-31')).toBe('2027-02-28');
    expect(dateForKey('Home', '2026-11-25')).toBe('2026-11-22');
    expect(dateForKey('x', '2026-11-25')).toBeNull();
  });
});

const Harness = () => {
  const [month, setMonth] = useState<YearMonth>({ year: 2026, month: 11 });
  const [selected, setSelected] = useState('2026-11-23');
  return (
    <MonthCalendar
      month={month}
      selected={selected}
      today="2026-11-23"
      marked={new Set(['2026-11-28'])}
      onSelect={setSelected}
      onMonthChange={setMonth}
    />
  );
};

describe('MonthCalendar', () => {
  it('shows the month, the weekday header, today and lesson days', () => {
    renderWithProviders(<Harness />);
    expect(
      screen.getByRole('heading', { name: '2026年11月' }),
    ).toBeInTheDocument();
    const grid = screen.getByRole('grid', { name: '2026年11月' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['日', '月', '火', '水', '木', '金', '土']);
    const today = screen.getByRole('button', { name: '11月23日' });
    expect(today).toHaveAttribute('aria-current', 'date');
    expect(today.closest('td')).toHaveAttribute('aria-selected', 'true');
    expect(
      screen.getByRole('button', { name: '11月28日 レッスンあり' }),
    ).toBeInTheDocument();
    // The first row starts with the 1st in the Sunday column.
    const firstRow = within(grid).getAllByRole('row')[1]!;
    expect(within(firstRow).getAllByRole('gridcell')[0]).toHaveTextContent('1');
  });

  it('moves with the arrow keys and the month buttons', () => {
    renderWithProviders(<Harness />);
    const today = screen.getByRole('button', { name: '11月23日' });
    today.focus();
    fireEvent.keyDown(today, { key: 'ArrowDown' });
    const next = screen.getByRole('button', { name: '11月30日' });
    expect(next.closest('td')).toHaveAttribute('aria-selected', 'true');
    expect(next).toHaveFocus();
    fireEvent.keyDown(next, { key: 'ArrowRight' });
    expect(
      screen.getByRole('heading', { name: '2026年12月' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '12月1日' })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: '前の月' }));
    expect(
      screen.getByRole('heading', { name: '2026年11月' }),
    ).toBeInTheDocument();
  });
});
