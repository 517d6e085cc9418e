import type { Competition, CompetitionReadInput } from '@proam/contract';
import { api } from '@/lib/api';

export const competitionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCompetitions: build.query<Competition[], CompetitionReadInput>({
      query: (input) => ({ path: '/competition/read', body: input }),
      providesTags: ['Competition'],
    }),
  }),
});

export const { useGetCompetitionsQuery } = competitionsApi;
