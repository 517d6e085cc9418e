import { api, postArg } from '@/lib/api';
import type { CheckinResult } from './buyer-mode';

/** `/punchout/checkin`: redeems a one-time ticket (no auth); errors are shown by the page. */
export const checkinApi = api.injectEndpoints({
  endpoints: (build) => ({
    redeemCheckin: build.mutation<CheckinResult, { ticket: string }>({
      query: postArg('/punchout/checkin', { auth: 'none', silent: true }),
    }),
  }),
});
