import { toJapanDate } from '@/lib/format';

/** `HH:mm` of an instant in Japan time. */
export const formatTime = (instant: string): string => {
  const t = new Date(instant).getTime();
  if (Number.isNaN(t)) return '';
  return new Date(t + 9 * 3600_000).toISOString().slice(11, 16);
};

/** The chat list's stamp: the time today, else `M/D`. */
export const formatListStamp = (instant: string, today: string): string => {
  const day = toJapanDate(instant);
  if (day === today) return formatTime(instant);
  const [, m, d] = day.split('-');
  return `${Number(m)}/${Number(d)}`;
};
