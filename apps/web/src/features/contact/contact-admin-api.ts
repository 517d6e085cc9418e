import type { ContactMessage } from '@proam/contract';
import { api } from '@/lib/api';

export type ContactListInput = {
  handled?: boolean;
  page?: number;
  size?: number;
};

/** The admins' inbox of contact-form messages. */
export const contactAdminApi = api.injectEndpoints({
  endpoints: (build) => ({
    getContactMessages: build.query<ContactMessage[], ContactListInput>({
      query: (body) => ({ path: '/contact/list', body }),
      providesTags: ['Contact'],
    }),
    setContactHandled: build.mutation<
      ContactMessage,
      { id: string; handled: boolean }
    >({
      query: (body) => ({ path: '/contact/update', body }),
      invalidatesTags: ['Contact'],
    }),
  }),
});

export const { useGetContactMessagesQuery, useSetContactHandledMutation } =
  contactAdminApi;
