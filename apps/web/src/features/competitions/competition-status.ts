import type { Competition, CompetitionStatus } from '@proam/contract';

export const STATUS_LABELS: Record<CompetitionStatus, string> = {
  draft: '下書き',
  open: 'エントリー受付中',
  closed: 'エントリー締切',
  finished: '終了',
};

export const isUpcoming = (c: Competition): boolean =>
  c.status === 'open' || c.status === 'closed';

/** Upcoming ones in date order, as the API sends them. */
export const upcomingCompetitions = (
  list: readonly Competition[],
): Competition[] => list.filter(isUpcoming);

/** Finished ones, the most recent first. */
export const finishedCompetitions = (
  list: readonly Competition[],
): Competition[] => list.filter((c) => c.status === 'finished').reverse();
