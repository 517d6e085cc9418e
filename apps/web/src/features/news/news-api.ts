import type {
  News,
  NewsCreateInput,
  NewsReadAllInput,
  NewsUpdateInput,
} from '@proam/contract';
import { adminEditEndpoints, api, postArg } from '@/lib/api';

/**
 * Public reads and the admins' calls share the `News` tag: any admin change
 * refetches every news list on screen (最新情報, the landing page, the admin
 * list), so the public pages show what was published without a reload.
 */
export const newsApi = api.injectEndpoints({
  endpoints: (build) => {
    const edits = adminEditEndpoints<News, NewsCreateInput, NewsUpdateInput>(
      build,
      '/news',
      'News',
    );
    return {
      getNewsList: build.query<News[], NewsReadAllInput>({
        query: postArg('/news/readAll', { auth: 'none' }),
        providesTags: ['News'],
      }),
      getNews: build.query<News | null, string>({
        query: (id) => ({ path: '/news/read', body: { id }, auth: 'none' }),
        providesTags: (_r, _e, id) => [{ type: 'News', id }],
      }),
      createNews: edits.create,
      updateNews: edits.update,
      deleteNews: edits.delete,
    };
  },
});

export const {
  useGetNewsListQuery,
  useGetNewsQuery,
  useCreateNewsMutation,
  useUpdateNewsMutation,
  useDeleteNewsMutation,
} = newsApi;
