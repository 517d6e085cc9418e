import { STATUS_ROUND, type StatusRound } from '@proam/contract';

export const STATUS_LABELS: Record<StatusRound, string> = {
  open: '募集中',
  full: '満員',
  closed: '締切',
  done: '終了',
  cancelled: '中止',
};

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
