import type { Database } from '../../src/db/database.js';

/** A database that only records its listener, so a cache's rules can be driven by hand. */
export function fakeDatabase() {
  const hooks: { payload?: (p: string) => void; resubscribed?: () => void } =
    {};
  const database = {
    listen: async (
      _channel: string,
      onPayload: (p: string) => void,
      onResubscribed?: () => void,
    ) => {
      hooks.payload = onPayload;
      hooks.resubscribed = onResubscribed;
      return async () => undefined;
    },
  } as unknown as Database;
  return { database, hooks };
}
