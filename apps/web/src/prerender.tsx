import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from '@/app/app';
import { loadRouteChain, matchRouteChain } from '@/app/route-match';
import { createAppRouter } from '@/app/router';
import { pageRoutes } from '@/app/route-table';
import { makeStore } from '@/app/store';

/**
 * The landing page as a first-time visitor's browser first renders it, as
 * HTML for index.html (vite-plugins/prerender.ts). The client hydrates it
 * with the same tree: App with a fresh store and the router on `/`, the
 * page's code loaded beforehand, so nothing differs on the first render.
 * Data from the API is not part of it: those sections show their loading
 * state, as they do on the client until the data arrives.
 */
/**
 * What the hash history reads of the window, for the address `/` with no
 * hash. The real hash router then writes links as `#/about`, exactly as in
 * the browser; a memory router would write `/about`.
 */
const landingWindow = {
  location: {
    hash: '',
    href: 'http://localhost/',
    origin: 'http://localhost',
    pathname: '/',
    search: '',
  },
  history: { state: null, replaceState() {}, pushState() {}, go() {} },
  document: { querySelector: () => null },
  addEventListener() {},
  removeEventListener() {},
} as unknown as Window;

export const renderLanding = async (): Promise<string> => {
  await loadRouteChain(matchRouteChain(pageRoutes, ''));
  const store = makeStore();
  // hydrationData: no script state to read (the router would look on `window`).
  const router = createAppRouter({ window: landingWindow, hydrationData: {} });
  try {
    return renderToString(
      <StrictMode>
        <App store={store} router={router} />
      </StrictMode>,
    );
  } finally {
    router.dispose();
  }
};
