import { api, type ApiRequest } from '@/lib/api';

/**
 * Bare endpoints on the app's api that send whatever request they are given:
 * for tests of the transport itself (envelopes, spinner, alerts, renewal).
 */
export const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probeQuery: build.query<unknown, ApiRequest>({ query: (args) => args }),
    probeMutation: build.mutation<unknown, ApiRequest>({
      query: (args) => args,
    }),
  }),
});
