import type { ContactMessage } from '@proam/contract';
import { api, postArg } from '@/lib/api';

export type ContactListInput = {
  handled?: boolean;
  page?: number;
  size?: number;
};

/** The admins' inbox of contact-form messages. */
export const contactAdminApi = api.injectEndpoints({
  endpoints: (build) => ({
    getContactMessages: build.query<ContactMessage[], ContactListInput>({
      query: postArg('/contact/list'),
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

export const { useGetContactMessagesQuery, useSetContactHandledMutation } =
  contactAdminApi;
