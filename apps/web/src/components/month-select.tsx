import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { formatMonth, isMonth, japanMonth, recentMonths } from '@/lib/month';

/**
 * The month in the address (`?month=YYYY-MM`, this Japan month when absent or
 * malformed) and a way to pick another, keeping the other parameters: the
 * month stays in the address so other pages can link to it.
 */
export const useMonthParam = (): [string, (month: string) => void] => {
  const [params, setParams] = useSearchParams();
  const raw = params.get('month');
  const month = isMonth(raw) ? raw : japanMonth();
  const pick = (m: string) => {
    const next = new URLSearchParams(params);
    next.set('month', m);
    setParams(next, { replace: true });
  };
  return [month, pick];
};

type MonthSelectProps = {
  month: string;
  onChange: (month: string) => void;
};

/** 対象月: this Japan month and the ones before it, newest first. */
export const MonthSelect = ({ month, onChange }: MonthSelectProps) => {
  const id = useId();
  const months = recentMonths();
  // A month from the address that is older than the list still shows as chosen.
  const options = months.includes(month) ? months : [month, ...months];
  return (
    <div className="form-field month-select">
      <label htmlFor={id} className="form-field__label">
        対象月
      </label>
      <select id={id} value={month} onChange={(e) => onChange(e.target.value)}>
        {options.map((m) => (
          <option key={m} value={m}>
            {formatMonth(m)}
          </option>
        ))}
      </select>
    </div>
  );
};
