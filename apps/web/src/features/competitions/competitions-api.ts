import type {
  Competition,
  CompetitionCreateInput,
  CompetitionReadInput,
  CompetitionUpdateInput,
} from '@proam/contract';
import { adminEditEndpoints, api, postArg } from '@/lib/api';

/**
 * Competitions live in the RTK Query cache, not in a slice: every answer of
 * `/competition/read` replaces its cache entry as a whole (the seed's rule,
 * "a retrieved list replaces all entries"), and each admin change invalidates
 * the `Competition` tag so every list on screen (the 大会 tab, the public
 * イベント日程・結果 page) is fetched again.
 */
export const competitionsApi = api.injectEndpoints({
  endpoints: (build) => {
    const edits = adminEditEndpoints<
      number,
      CompetitionCreateInput,
      CompetitionUpdateInput
    >(build, '/competition', 'Competition');
    return {
      getCompetitions: build.query<Competition[], CompetitionReadInput>({
        query: postArg('/competition/read'),
        providesTags: ['Competition'],
      }),
      createCompetition: edits.create,
      updateCompetition: edits.update,
      deleteCompetition: edits.delete,
    };
  },
});

export const {
  useGetCompetitionsQuery,
  useCreateCompetitionMutation,
  useUpdateCompetitionMutation,
  useDeleteCompetitionMutation,
} = competitionsApi;
