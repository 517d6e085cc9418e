import type {
  CONTACT_CATEGORIES,
  Competition,
  CompetitionStatus,
} from '@proam/contract';

export const STATUS_LABELS: Record<CompetitionStatus, string> = {
  draft: '下書き',
  open: 'エントリー受付中',
  closed: 'エントリー締切',
  finished: '終了',
};

/**
 * How a member enters a competition that takes entries: the app has no entry
 * of its own (API.md, Competitions), so the company takes entries through the
 * contact form (/contact/create), under this category of the form.
 */
export const ENTRY_CONTACT_CATEGORY =
  '大会・イベントについて' satisfies (typeof CONTACT_CATEGORIES)[number];

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
