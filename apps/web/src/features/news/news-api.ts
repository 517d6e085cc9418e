import type {
  News,
  NewsCreateInput,
  NewsReadAllInput,
  NewsUpdateInput,
} from '@proam/contract';
import { api } from '@/lib/api';

/**
 * Public reads and the admins' calls share the `News` tag: any admin change
 * refetches every news list on screen (最新情報, the landing page, the admin
 * list), so the public pages show what was published without a reload.
 */
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
    /** Admins: every item, scheduled ones included, newest first. */
    getAdminNews: build.query<News[], { page?: number; size?: number }>({
      query: (input) => ({ path: '/news/adminList', body: input }),
      providesTags: ['News'],
    }),
    createNews: build.mutation<News, NewsCreateInput>({
      query: (body) => ({ path: '/news/create', body }),
      invalidatesTags: ['News'],
    }),
    updateNews: build.mutation<News, NewsUpdateInput>({
      query: (body) => ({ path: '/news/update', body }),
      invalidatesTags: ['News'],
    }),
    deleteNews: build.mutation<{ deletedCount: number }, string>({
      query: (id) => ({ path: '/news/delete', body: { id } }),
      invalidatesTags: ['News'],
    }),
  }),
});

export const {
  useGetNewsListQuery,
  useGetNewsQuery,
  useGetAdminNewsQuery,
  useCreateNewsMutation,
  useUpdateNewsMutation,
  useDeleteNewsMutation,
} = newsApi;
