import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { NavRoundButton } from '@/components/nav-round-button';
import {
  addMonths,
  dateForKey,
  formatYearMonth,
  monthGrid,
  monthOf,
  parseYmd,
  WEEKDAY_LABELS,
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
 * day is in the tab order.
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
              {week.map((cell, ci) =>
                cell ? (
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
                        cell.date === today && 'is-today',
                        cell.date === selected && 'is-selected',
                      ]
                        .filter(Boolean)
                        .join(' ')}
                      tabIndex={cell.date === focusDate ? 0 : -1}
                      aria-current={cell.date === today ? 'date' : undefined}
                      aria-label={dayLabel(cell.date, marked.has(cell.date))}
                      onClick={() => onSelect(cell.date)}
                    >
                      <span aria-hidden="true">{cell.day}</span>
                      {marked.has(cell.date) && (
                        <span
                          className="month-calendar__dot"
                          aria-hidden="true"
                        />
                      )}
                    </button>
                  </td>
                ) : (
                  <td key={`pad-${ci}`} role="gridcell" aria-hidden="true" />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};

const formatYmdPrefix = ({ year, month }: YearMonth) =>
  `${year}-${String(month).padStart(2, '0')}`;

const weekdayClass = (weekday: number) =>
  weekday === 0 ? 'is-sunday' : weekday === 6 ? 'is-saturday' : undefined;

const dayLabel = (ymd: string, hasLessons: boolean) => {
  const { month, day } = parseYmd(ymd);
  return `${month}月${day}日${hasLessons ? ' レッスンあり' : ''}`;
};
