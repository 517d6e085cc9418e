import { STATUS_ROUND, type StatusRound } from '@proam/contract';
import { STATUS_LABELS } from '@/components/status-badge';

export const STATUS_OPTIONS = STATUS_ROUND.map((value) => ({
  value,
  label: STATUS_LABELS[value],
}));

/**
 * What a pro sets for a whole day. 中止 is not among them: a lesson is called
 * off one at a time with a reason (中止する), so its participants are mailed.
 */
export const DAY_STATUS_OPTIONS = STATUS_OPTIONS.filter(
  (o) => o.value !== 'cancelled',
);

export const isStatusRound = (v: string): v is StatusRound =>
  (STATUS_ROUND as readonly string[]).includes(v);
