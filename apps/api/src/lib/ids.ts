import { monotonicFactory } from 'ulid';

/** Row ids and message sort keys: ULIDs, time-ordered and strictly increasing in this process. */
export const newId: () => string = monotonicFactory();
