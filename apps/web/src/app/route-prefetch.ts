import type { AppDispatch } from './store';

/**
 * Starts a page's API requests before its first render (src/boot/start-app.ts
 * calls it on the page a visit starts on). Not for the prerendered landing page: its
 * first render must find the store as the prerender did.
 */
export type RoutePrefetch = (
  dispatch: AppDispatch,
  params: Readonly<Record<string, string>>,
) => void;
