import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from '@/app/app';
import {
  MEMBER_TABS,
  PRERENDERED_PAGES,
  type PaymentMode,
} from '@/app/prerendered-pages';
import { loadRouteChain, matchRouteChain } from '@/app/route-match';
import { createAppRouter } from '@/app/router';
import { pageRoutes } from '@/app/route-table';
import { makeStore } from '@/app/store';
import { runtimeConfig } from '@/config/env';
import { setPrerenderTitleSink } from '@/hooks/use-document-title';

export { MEMBER_TABS, PRERENDERED_PAGES };

/**
 * What the hash history reads of the window, for the address of `path`
 * (`''` is the landing page, no hash). The real hash router then writes
 * links as `#/about`, exactly as in the browser; a memory router would write
 * `/about`.
 */
const windowAt = (path: string): Window => {
  const hash = path === '' ? '' : `#/${path}`;
  return {
    location: {
      hash,
      href: `http://localhost/${hash}`,
      origin: 'http://localhost',
      pathname: '/',
      search: '',
    },
    history: { state: null, replaceState() {}, pushState() {}, go() {} },
    document: { querySelector: () => null },
    addEventListener() {},
    removeEventListener() {},
  } as unknown as Window;
};

/** A store as a returning member's browser starts: a stored login being confirmed. */
const restoring = () =>
  makeStore({
    auth: { ...makeStore().getState().auth, status: 'restoring' },
  });

/**
 * The member tab at `path` as a returning member's browser first renders it,
 * before the stored login is confirmed (app/prerendered-pages.ts).
 */
export const renderMemberTab = (
  path: string,
  onTitle?: (title: string) => void,
): Promise<string> => renderPage(path, onTitle, true);

/**
 * A page as a first-time visitor's browser first renders it, as HTML for
 * index.html (vite-plugins/prerender.ts). The client hydrates it with the
 * same tree: App with a fresh store and the router on that address, the
 * page's code loaded beforehand, so nothing differs on the first render.
 * Data from the API is not part of it: those sections show their loading
 * state, as they do on the client until the data arrives. `onTitle` learns
 * the document title the page sets.
 */
export const renderPage = async (
  path: string,
  onTitle?: (title: string) => void,
  member = false,
): Promise<string> => {
  await loadRouteChain(matchRouteChain(pageRoutes, path));
  const store = member ? restoring() : makeStore();
  // hydrationData: no script state to read (the router would look on `window`).
  const router = createAppRouter({ window: windowAt(path), hydrationData: {} });
  setPrerenderTitleSink(onTitle ?? null);
  try {
    return renderToString(
      <StrictMode>
        <App store={store} router={router} />
      </StrictMode>,
    );
  } finally {
    setPrerenderTitleSink(null);
    router.dispose();
  }
};

/**
 * The page as it renders in payment mode `mode`. The build has no
 * deployment's settings (they come with the page, config/env.ts), so the
 * mode is set on the settings object for this render and put back after.
 */
export const renderPageIn = async (
  path: string,
  mode: PaymentMode,
  onTitle?: (title: string) => void,
): Promise<string> => {
  const key = runtimeConfig.stripePublishableKey;
  runtimeConfig.stripePublishableKey =
    mode === 'online' ? 'pk_prerender' : null;
  try {
    return await renderPage(path, onTitle);
  } finally {
    runtimeConfig.stripePublishableKey = key;
  }
};

/**
 * The operator's details the pages marked `company` were rendered with (the
 * defaults, config/env.ts). The build writes them on those pages' templates;
 * a server with other details drops them (apps/api/src/plugins/web.ts).
 */
export const prerenderedCompany = () => ({
  companyName: runtimeConfig.companyName,
  companyAddress: runtimeConfig.companyAddress,
  companyPhone: runtimeConfig.companyPhone,
  companyRepresentative: runtimeConfig.companyRepresentative,
  companyMail: runtimeConfig.companyMail,
});
