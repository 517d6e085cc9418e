import type {
  Competition,
  CompetitionCreateInput,
  CompetitionReadInput,
  CompetitionUpdateInput,
} from '@proam/contract';
import { api } from '@/lib/api';

/**
 * Competitions live in the RTK Query cache, not in a slice: every answer of
 * `/competition/read` replaces its cache entry as a whole (the seed's rule,
 * "a retrieved list replaces all entries"), and each admin change invalidates
 * the `Competition` tag so every list on screen (the 大会 tab, the public
 * イベント日程・結果 page) is fetched again.
 */
export const competitionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCompetitions: build.query<Competition[], CompetitionReadInput>({
      query: (input) => ({ path: '/competition/read', body: input }),
      providesTags: ['Competition'],
    }),
    createCompetition: build.mutation<number, CompetitionCreateInput>({
      query: (body) => ({ path: '/competition/create', body }),
      invalidatesTags: ['Competition'],
    }),
    updateCompetition: build.mutation<number, CompetitionUpdateInput>({
      query: (body) => ({ path: '/competition/update', body }),
      invalidatesTags: ['Competition'],
    }),
    deleteCompetition: build.mutation<{ deletedCount: number }, string>({
      query: (id) => ({ path: '/competition/delete', body: { id } }),
      invalidatesTags: ['Competition'],
    }),
  }),
});

export const {
  useGetCompetitionsQuery,
  useCreateCompetitionMutation,
  useUpdateCompetitionMutation,
  useDeleteCompetitionMutation,
} = competitionsApi;
