import { hashPath, loadRouteChain, matchRouteChain } from '@/app/route-match';
import { pageRoutes, type RouteHandle } from '@/app/route-table';
import { runtimeConfig } from '@/config/env';
import { prerenderedPathOf } from './prerendered-page';
import { type StartApp } from './static-landing';

const nextTask = () =>
  new Promise<void>((resolve) => window.setTimeout(resolve, 0));

/**
 * Loads and renders the app; resolves once its first render is committed.
 *
 * Start-up runs as a few short tasks instead of one long one. The page's
 * chunk, requested first, brings the start-up chunks (react, state, shell; see
 * vite.config.ts) with it in one round of requests (Vite preloads a chunk's
 * imports), and their code is evaluated as they arrive; creating the store,
 * creating the router and the first render then each get their own task, and
 * that render is a transition, which React splits into 5 ms slices. A
 * phone's main thread stays free for input, and Lighthouse sees no long task.
 */
export const startApp: StartApp = async ({ beforeRender }) => {
  // Stripe and the payment components load only with a publishable key, and
  // even the loader stays out of the first load.
  if (runtimeConfig.stripePublishableKey) {
    const key = runtimeConfig.stripePublishableKey;
    void import('@/features/payment/stripe-loader').then((m) =>
      m.startPayments(key),
    );
  }
  // Inside the Capacitor shell the native bridge defines window.Capacitor
  // before the app loads; the web never fetches the native wiring.
  if ('Capacitor' in window) {
    void import('@/lib/native-shell').then((m) => m.setUpNativeShell());
  }

  // Start fetching the page's own code now, alongside the app's. Should that
  // fail, the router loads the page itself and shows its error page if need be.
  const matched = matchRouteChain(pageRoutes, hashPath(window.location.hash));
  const pageReady = loadRouteChain(matched).catch(() => undefined);

  const [
    { createElement, Fragment, startTransition, StrictMode, useLayoutEffect },
    reactDom,
  ] = await Promise.all([import('react'), import('react-dom/client')]);
  await nextTask();
  const [{ makeStore, asPrerendered }, { startSession }] = await Promise.all([
    import('@/app/store'),
    import('@/features/auth/auth-session'),
  ]);
  const store = makeStore();
  // As the prerendered HTML was rendered: before the handshake and any call.
  const initialState = asPrerendered(store.getState());
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
  await beforeRender();
  const container = document.getElementById('root');
  if (!container) return;
  // #root holds a page prerendered for a visitor, or a returning member's
  // tab (vite-plugins/prerender.ts; data-prerendered names it, data-member
  // marks a member's). It is hydrated when that is what this first render
  // shows: that page, nobody logged in; or that tab, the stored login still
  // being confirmed. Decided after the wait, from the address shown now.
  const shown = container.getAttribute('data-prerendered');
  // The status the page started with: hydration renders from that state
  // (serverState below) and then catches up with the store, which may have
  // moved on meanwhile (a login confirmed, or ended).
  const { status } = initialState.auth;
  const hydrate =
    shown !== null &&
    prerenderedPathOf(window.location.hash) === shown &&
    status ===
      (container.hasAttribute('data-member') ? 'restoring' : 'anonymous');
  if (hydrate) await loadRouteChain(matchRouteChain(pageRoutes, shown));
  // Hydration data, as in the prerender, also tells the router the page is
  // already shown: it leaves the scroll position alone instead of jumping to
  // the top under a visitor who has scrolled before the app arrived.
  const router = createAppRouter(hydrate ? { hydrationData: {} } : undefined);
  await nextTask();

  let committed = () => {};
  const done = new Promise<void>((resolve) => (committed = resolve));
  const Committed = () => {
    useLayoutEffect(() => {
      // public/deep-link.js marked a stored login to hide the prerendered
      // header's ログイン link (base.css); the header is the app's now, whether
      // this render hydrated it (nobody logged in after all, or the Capacitor
      // shell without a login) or replaced it.
      document.documentElement.classList.remove('member');
      committed();
    }, []);
    return null;
  };
  const app = createElement(
    StrictMode,
    null,
    createElement(App, {
      store,
      router,
      serverState: hydrate ? initialState : undefined,
    }),
    createElement(Committed),
  );
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
  await done;
};
