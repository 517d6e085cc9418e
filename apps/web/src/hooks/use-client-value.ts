import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * A value only the browser knows (today's date, the deployment's settings),
 * given as `prerendered` while React hydrates the HTML built ahead of time
 * and as `read()` from the next render on, so hydration never meets text
 * that differs from the prerendered HTML.
 */
export const useClientValue = <T>(read: () => T, prerendered: T): T =>
  useSyncExternalStore(never, read, () => prerendered);
