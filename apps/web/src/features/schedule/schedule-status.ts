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

export const isStatusRound = (v: string): v is StatusRound =>
  (STATUS_ROUND as readonly string[]).includes(v);
