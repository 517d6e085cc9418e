import type { ContactMessage } from '@proam/contract';
import { api, numberedPages, postArg } from '@/lib/api';

/** Rows a page of /contact/list holds (the API's default; at most 100). */
export const CONTACT_PAGE_SIZE = 50;

export type ContactListInput = { handled?: boolean };

/** The admins' inbox of contact-form messages. */
export const contactAdminApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Newest first, a page at a time; all of them, or handled or not. */
    getContactMessages: build.infiniteQuery<
      ContactMessage[],
      ContactListInput,
      number
    >({
      infiniteQueryOptions: numberedPages(CONTACT_PAGE_SIZE),
      query: ({ queryArg, pageParam }) => ({
        path: '/contact/list',
        body: { ...queryArg, page: pageParam, size: CONTACT_PAGE_SIZE },
      }),
      providesTags: ['Contact'],
    }),
    setContactHandled: build.mutation<
      ContactMessage,
      { id: string; handled: boolean }
    >({
      query: postArg('/contact/update'),
      invalidatesTags: ['Contact'],
    }),
  }),
});

export const {
  useGetContactMessagesInfiniteQuery,
  useSetContactHandledMutation,
} = contactAdminApi;
