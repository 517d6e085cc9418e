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

const Harness = ({
  start = { year: 2026, month: 11 },
  initial = '2026-11-23',
}: {
  start?: YearMonth;
  initial?: string;
}) => {
  const [month, setMonth] = useState<YearMonth>(start);
  const [selected, setSelected] = useState(initial);
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

/** The day numbers of each row of the grid, '' for the padding cells. */
const rowsOf = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('gridcell', { hidden: true })
        .map((cell) => cell.textContent?.replace(/\D/g, '') ?? ''),
    );

/** Weeks drawn as text for `rowsOf`, a line a week; `.` is a padding cell. */
const weeks = (drawn: string) =>
  drawn
    .trim()
    .split('\n')
    .map((week) =>
      week
        .trim()
        .split(/\s+/)
        .map((day) => (day === '.' ? '' : day)),
    );

describe('MonthCalendar', () => {
  it('shows the month, the weekday header from 日曜, today and lesson days', async () => {
    renderWithProviders(<Harness />);
    expect(
      screen.getByRole('heading', { name: '2026年11月' }),
    ).toBeInTheDocument();
    const grid = screen.getByRole('grid', { name: '2026年11月' });
    const headers = within(grid).getAllByRole('columnheader');
    // Sunday first, as Japanese calendars do.
    expect(headers.map((h) => h.textContent).join('')).toBe('日月火水木金土');
    expect(headers[0]).toHaveClass('is-sunday');
    expect(headers[6]).toHaveClass('is-saturday');
    expect(headers.slice(1, 6).some((h) => h.className)).toBe(false);
    const today = await screen.findByRole('button', {
      name: '11月23日（月・祝）勤労感謝の日',
    });
    expect(today).toHaveAttribute('aria-current', 'date');
    expect(today.closest('td')).toHaveAttribute('aria-selected', 'true');
    expect(
      screen.getByRole('button', { name: '11月28日（土）レッスンあり' }),
    ).toBeInTheDocument();
    // 2026年11月 begins on a Sunday: no padding before the 1st.
    expect(rowsOf(grid)).toEqual(
      weeks(`
         1  2  3  4  5  6  7
         8  9 10 11 12 13 14
        15 16 17 18 19 20 21
        22 23 24 25 26 27 28
        29 30  .  .  .  .  .
      `),
    );
  });

  it('lays out a month that begins on a Saturday over six weeks', async () => {
    renderWithProviders(
      <Harness start={{ year: 2026, month: 8 }} initial="2026-08-01" />,
    );
    const grid = screen.getByRole('grid', { name: '2026年8月' });
    expect(rowsOf(grid)).toEqual(
      weeks(`
         .  .  .  .  .  .  1
         2  3  4  5  6  7  8
         9 10 11 12 13 14 15
        16 17 18 19 20 21 22
        23 24 25 26 27 28 29
        30 31  .  .  .  .  .
      `),
    );
    expect(screen.getByRole('button', { name: /^8月1日（土）/ })).toHaveClass(
      'is-saturday',
    );
    expect(screen.getByRole('button', { name: /^8月2日（日）/ })).toHaveClass(
      'is-sunday',
    );
    expect(
      await screen.findByRole('button', { name: '8月11日（火・祝）山の日' }),
    ).toHaveClass('is-holiday');
  });

  it('colours 土 and 日 and marks 祝日 with their names, not by colour alone', async () => {
    renderWithProviders(<Harness />);
    const holiday = await screen.findByRole('button', {
      name: '11月3日（火・祝）文化の日',
    });
    expect(holiday).toHaveClass('is-holiday');
    expect(holiday).not.toHaveClass('is-sunday');
    // The cell shows 「祝」 (the name where wide) from data-name, by CSS.
    expect(
      holiday.querySelector('.month-calendar__holiday[data-name="文化の日"]'),
    ).toHaveAttribute('title', '文化の日');
    // Only the day number is text, so the visible label is in the name.
    expect(holiday).toHaveTextContent(/^3$/);
    const weekday = screen.getByRole('button', { name: '11月4日（水）' });
    expect(weekday.className).toBe('month-calendar__day');
    expect(screen.getByRole('button', { name: '11月1日（日）' })).toHaveClass(
      'is-sunday',
    );
    expect(screen.getByRole('button', { name: '11月7日（土）' })).toHaveClass(
      'is-saturday',
    );
    // The month's holidays are listed in words under the grid.
    const list = screen.getByRole('list', { name: '11月の祝日' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['3日（火）文化の日', '23日（月）勤労感謝の日']);
  });

  it('renders a month before its year’s holidays arrive, then marks them', async () => {
    // 2027 is loaded by no other test in this file.
    renderWithProviders(
      <Harness start={{ year: 2027, month: 1 }} initial="2027-01-04" />,
    );
    const plain = screen.getByRole('button', { name: '1月11日（月）' });
    expect(plain).not.toHaveClass('is-holiday');
    expect(
      await screen.findByRole('button', {
        name: '1月11日（月・祝）成人の日',
      }),
    ).toHaveClass('is-holiday');
    expect(
      screen.getByRole('button', { name: '1月1日（金・祝）元日' }),
    ).toHaveClass('is-holiday');
  });

  it('moves with the arrow keys and the month buttons', async () => {
    renderWithProviders(<Harness />);
    const today = await screen.findByRole('button', {
      name: '11月23日（月・祝）勤労感謝の日',
    });
    today.focus();
    fireEvent.keyDown(today, { key: 'ArrowDown' });
    const next = screen.getByRole('button', { name: '11月30日（月）' });
    expect(next.closest('td')).toHaveAttribute('aria-selected', 'true');
    expect(next).toHaveFocus();
    fireEvent.keyDown(next, { key: 'ArrowRight' });
    expect(
      screen.getByRole('heading', { name: '2026年12月' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '12月1日（火）' })).toHaveFocus();
    // December has no holiday: no list, and the place for it stays.
    expect(screen.queryByRole('list')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '前の月' }));
    expect(
      screen.getByRole('heading', { name: '2026年11月' }),
    ).toBeInTheDocument();
  });
});
