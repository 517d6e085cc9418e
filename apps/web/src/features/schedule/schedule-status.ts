import { STATUS_ROUND, type StatusRound } from '@proam/contract';
import { STATUS_LABELS } from '@/components/status-badge';

export const STATUS_OPTIONS = STATUS_ROUND.map((value) => ({
  value,
  label: STATUS_LABELS[value],
}));

/**
 * What a pro sets for a whole day. 中止 is not among them: a lesson is called
 * off one at a time with a reason (中止する), so its participants are mailed.
 * 満員 is shown but not chosen: a lesson is full when its places are taken
 * (the server opens a lesson set full with a place free).
 */
export const DAY_STATUS_OPTIONS = STATUS_OPTIONS.filter(
  (o) => o.value !== 'cancelled',
).map((o) => ({ ...o, disabled: o.value === 'full' }));

export const isStatusRound = (v: string): v is StatusRound =>
  (STATUS_ROUND as readonly string[]).includes(v);
