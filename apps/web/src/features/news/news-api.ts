import type { News, NewsReadAllInput } from '@proam/contract';
import { api } from '@/lib/api';

export const newsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNewsList: build.query<News[], NewsReadAllInput>({
      query: (input) => ({ path: '/news/readAll', body: input, auth: 'none' }),
      providesTags: ['News'],
    }),
    getNews: build.query<News | null, string>({
      query: (id) => ({ path: '/news/read', body: { id }, auth: 'none' }),
      providesTags: (_r, _e, id) => [{ type: 'News', id }],
    }),
  }),
});

export const { useGetNewsListQuery, useGetNewsQuery } = newsApi;
