import type { StatusRound } from '@proam/contract';

/** A round lesson's status, as its members and pros read it. */
export const STATUS_LABELS: Record<StatusRound, string> = {
  open: '募集中',
  full: '満員',
  closed: '締切',
  done: '終了',
  cancelled: '中止',
};

/** A lesson's status as a badge (the schedule and the chat show it). */
export const StatusBadge = ({ status }: { status: StatusRound }) => (
  <span className={`status-badge status-badge--${status}`}>
    {STATUS_LABELS[status]}
  </span>
);

type BadgeProps = {
  /** The colour, by the status it usually stands for. */
  tone: StatusRound | 'scheduled' | 'suspended' | 'finished';
  children: string;
};

/** Any other state as a status badge (確認済み, 予約投稿, 利用停止中, …). */
export const Badge = ({ tone, children }: BadgeProps) => (
  <span className={`status-badge status-badge--${tone}`}>{children}</span>
);
