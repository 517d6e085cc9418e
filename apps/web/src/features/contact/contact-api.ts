import type { ContactCreateInput } from '@proam/contract';
import { api, postArg } from '@/lib/api';

export const contactApi = api.injectEndpoints({
  endpoints: (build) => ({
    createContact: build.mutation<{ received: true }, ContactCreateInput>({
      query: postArg('/contact/create', { auth: 'none' }),
    }),
  }),
});

export const { useCreateContactMutation } = contactApi;
