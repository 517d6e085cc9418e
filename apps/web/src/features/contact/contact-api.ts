import type { ContactCreateInput } from '@proam/contract';
import { api } from '@/lib/api';

export const contactApi = api.injectEndpoints({
  endpoints: (build) => ({
    createContact: build.mutation<{ received: true }, ContactCreateInput>({
      query: (input) => ({
        path: '/contact/create',
        body: input,
        auth: 'none',
      }),
    }),
  }),
});

export const { useCreateContactMutation } = contactApi;
