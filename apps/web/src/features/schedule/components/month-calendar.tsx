import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { NavRoundButton } from '@/components/nav-round-button';
import { useHolidays } from '@/lib/holidays';
import {
  addMonths,
  dateForKey,
  formatYearMonth,
  monthGrid,
  monthOf,
  parseYmd,
  WEEKDAY_LABELS,
  type DayCell,
  type YearMonth,
} from '../calendar';

type MonthCalendarProps = {
  month: YearMonth;
  /** The chosen day, `YYYY-MM-DD`. */
  selected: string;
  today: string;
  /** Days with lessons get a dot. */
  marked: ReadonlySet<string>;
  onSelect: (date: string) => void;
  onMonthChange: (month: YearMonth) => void;
};

const sameMonth = (a: YearMonth, b: YearMonth) =>
  a.year === b.year && a.month === b.month;

/**
 * A month grid (APG date grid): the arrow keys move by a day or a week,
 * Home/End to the week's ends, PageUp/PageDown by a month; only the chosen
 * day is in the tab order. Laid out as Japanese calendars are: weeks from
 * 日曜, 土 in blue, 日 and 祝日 in red, each holiday also marked 「祝」 (its
 * name where the cells are wide enough), named in the day's accessible name
 * and listed under the grid, so colour is never the only sign.
 */
export const MonthCalendar = ({
  month,
  selected,
  today,
  marked,
  onSelect,
  onMonthChange,
}: MonthCalendarProps) => {
  const headingId = useId();
  const gridRef = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);
  const weeks = monthGrid(month);
  // Loaded after the first render: the grid never waits for the holidays.
  const holidays = useHolidays(month.year);
  const monthHolidays = weeks.flat().flatMap((cell) => {
    const name = cell && holidays.get(cell.date);
    return cell && name ? [{ ...cell, name }] : [];
  });
  const selectedInMonth = sameMonth(monthOf(selected), month);
  // The day that takes focus: the chosen one, else the 1st of the month shown.
  const focusDate = selectedInMonth ? selected : `${formatYmdPrefix(month)}-01`;

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    gridRef.current
      ?.querySelector<HTMLButtonElement>(`[data-date="${focusDate}"]`)
      ?.focus();
  }, [focusDate]);

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const next = dateForKey(event.key, focusDate);
    if (!next) return;
    event.preventDefault();
    moveFocus.current = true;
    const nextMonth = monthOf(next);
    if (!sameMonth(nextMonth, month)) onMonthChange(nextMonth);
    onSelect(next);
  };

  return (
    <div className="month-calendar">
      <div className="month-calendar__head">
        <NavRoundButton
          label="前の月"
          arrow="‹"
          onClick={() => onMonthChange(addMonths(month, -1))}
        />
        <h2 id={headingId} className="month-calendar__title" aria-live="polite">
          {formatYearMonth(month)}
        </h2>
        <NavRoundButton
          label="次の月"
          arrow="›"
          onClick={() => onMonthChange(addMonths(month, 1))}
        />
      </div>
      <table
        ref={gridRef}
        role="grid"
        className="month-calendar__grid"
        aria-labelledby={headingId}
        onKeyDown={onKeyDown}
      >
        <thead>
          <tr>
            {WEEKDAY_LABELS.map((w, i) => (
              <th
                key={w}
                scope="col"
                abbr={`${w}曜日`}
                className={weekdayClass(i)}
              >
                {w}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, wi) => (
            <tr key={wi}>
              {week.map((cell, ci) => {
                if (!cell)
                  return (
                    <td key={`pad-${ci}`} role="gridcell" aria-hidden="true" />
                  );
                const holiday = holidays.get(cell.date);
                const hasLessons = marked.has(cell.date);
                return (
                  <td
                    key={cell.date}
                    role="gridcell"
                    aria-selected={cell.date === selected}
                  >
                    <button
                      type="button"
                      data-date={cell.date}
                      className={[
                        'month-calendar__day',
                        weekdayClass(cell.weekday),
                        holiday && 'is-holiday',
                        cell.date === today && 'is-today',
                        cell.date === selected && 'is-selected',
                      ]
                        .filter(Boolean)
                        .join(' ')}
                      tabIndex={cell.date === focusDate ? 0 : -1}
                      aria-current={cell.date === today ? 'date' : undefined}
                      aria-label={dayLabel(cell, holiday, hasLessons)}
                      onClick={() => onSelect(cell.date)}
                    >
                      {/* The title shows a holiday's name on hover; on the
                          hidden spans so screen readers do not hear it twice. */}
                      <span aria-hidden="true" title={holiday}>
                        {cell.day}
                      </span>
                      {holiday && (
                        // 「祝」, or the name in wide cells, drawn by CSS from
                        // data-name: text in the button would have to be
                        // part of its accessible name (WCAG 2.5.3).
                        <span
                          className="month-calendar__holiday"
                          data-name={holiday}
                          aria-hidden="true"
                          title={holiday}
                        />
                      )}
                      {hasLessons && (
                        <span
                          className="month-calendar__dot"
                          aria-hidden="true"
                        />
                      )}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {/* Always there, so the page below does not jump when the year's
          holidays arrive. */}
      <div className="month-calendar__holidays">
        {monthHolidays.length > 0 && (
          <ul aria-label={`${month.month}月の祝日`}>
            {monthHolidays.map((h) => (
              <li key={h.date}>
                <span className="month-calendar__holidays-date">
                  {h.day}日（{WEEKDAY_LABELS[h.weekday]}）
                </span>
                {h.name}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
};

const formatYmdPrefix = ({ year, month }: YearMonth) =>
  `${year}-${String(month).padStart(2, '0')}`;

const weekdayClass = (weekday: number) =>
  weekday === 0 ? 'is-sunday' : weekday === 6 ? 'is-saturday' : undefined;

/**
 * `11月23日（月・祝）勤労感謝の日、レッスンあり`: the weekday and the holiday
 * are spoken, not only coloured.
 */
const dayLabel = (
  cell: DayCell,
  holiday: string | undefined,
  hasLessons: boolean,
) => {
  const { month, day } = parseYmd(cell.date);
  const weekday = `${WEEKDAY_LABELS[cell.weekday]}${holiday ? '・祝' : ''}`;
  const notes = [holiday, hasLessons && 'レッスンあり'].filter(Boolean);
  return `${month}月${day}日（${weekday}）${notes.join('、')}`;
};
