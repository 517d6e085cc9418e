/** Time as the server sees it; tests swap in a clock they can move. */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };
