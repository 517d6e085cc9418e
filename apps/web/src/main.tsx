import { hashPath, loadRouteChain, matchRouteChain } from '@/app/route-match';
import { pageRoutes, type RouteHandle } from '@/app/route-table';
import { scheduleSplashHide } from '@/components/splash';
import { runtimeConfig } from '@/config/env';
import '@/styles/base.css';
import '@/styles/layout.css';
import '@/styles/components.css';
import '@/styles/pages.css';

scheduleSplashHide();

// Start fetching the page's own code now, alongside the app's. Should that
// fail, the router loads the page itself and shows its error page if need be.
const path = hashPath(window.location.hash);
const matched = matchRouteChain(pageRoutes, path);
const pageReady = loadRouteChain(matched).catch(() => undefined);

/**
 * Start-up runs as a few short tasks instead of one long one. The page's
 * chunk, requested above, brings the start-up chunks (react, state, shell; see
 * vite.config.ts) with it in one round of requests (Vite preloads a chunk's
 * imports), and their code is evaluated as they arrive; creating the store,
 * creating the router and the first render then each get their own task, and
 * that render is a transition, which React splits into 5 ms slices. A
 * phone's main thread stays free for input, and Lighthouse sees no long
 * task. index.html does not preload these chunks: the HTML and CSS alone
 * paint the page first (measured: first paint 1.1 s instead of 2.2 s on
 * Lighthouse's phone).
 */
const nextTask = () =>
  new Promise<void>((resolve) => window.setTimeout(resolve, 0));

const start = async () => {
  const [
    { createElement, Fragment, startTransition, StrictMode, useLayoutEffect },
    reactDom,
  ] = await Promise.all([import('react'), import('react-dom/client')]);
  await nextTask();
  const [{ makeStore }, { startSession }] = await Promise.all([
    import('@/app/store'),
    import('@/features/auth/auth-session'),
  ]);
  const store = makeStore();
  // Outside React so StrictMode's double effects cannot run the handshake twice.
  startSession(store);
  // The page's own API requests go out now rather than after its first render.
  void pageReady.then(() => {
    for (const route of matched.routes)
      (route.handle as RouteHandle | undefined)?.prefetch?.(
        store.dispatch,
        matched.params,
      );
  });
  await nextTask();
  const [{ App }, { createAppRouter }] = await Promise.all([
    import('@/app/app'),
    import('@/app/router'),
    pageReady,
  ]);
  const router = createAppRouter();
  await nextTask();

  const container = document.getElementById('root');
  if (!container) return;
  const app = createElement(
    StrictMode,
    null,
    createElement(App, { store, router }),
  );
  // index.html carries the landing page prerendered for a visitor (see
  // vite-plugins/prerender.ts). It is hydrated when that is what this first
  // render shows: the landing page, nobody logged in.
  const hydrate =
    container.hasAttribute('data-prerendered') &&
    path === '' &&
    store.getState().auth.status === 'anonymous';
  startTransition(() => {
    if (hydrate) {
      reactDom.hydrateRoot(container, app);
      return;
    }
    // React replaces the prerendered HTML when it commits this render; only
    // then may the rule that hid its content (base.css) go, in the same frame.
    const DropPrerendered = () => {
      useLayoutEffect(() => container.removeAttribute('data-prerendered'), []);
      return null;
    };
    reactDom
      .createRoot(container)
      .render(
        createElement(Fragment, null, app, createElement(DropPrerendered)),
      );
  });
};

void start();

// Stripe and the payment components load only with a publishable key, and
// even the loader stays out of the first load.
if (runtimeConfig.stripePublishableKey) {
  const key = runtimeConfig.stripePublishableKey;
  void import('@/features/payment/stripe-loader').then((m) =>
    m.startPayments(key),
  );
}
// The service worker (offline app shell) registers after the first load.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    void import('@/pwa/register').then((m) => m.registerServiceWorker());
  });
}

// Inside the Capacitor shell the native bridge defines window.Capacitor before
// the app loads; the web never fetches the native wiring.
if ('Capacitor' in window) {
  void import('@/lib/native-shell').then((m) => m.setUpNativeShell());
}
