import { runtimeConfig } from '@/config/env';
import { onUpdateAvailable } from '@/pwa/update-events';

/** CloseIcon's path (components/icons.tsx); a unit test keeps them equal. */
export const CLOSE_ICON_PATH = 'M6 6l12 12M18 6L6 18';

/** The landing page's own address: no hash, `#`, `#/`, with or without a query. */
export const isLandingHash = (hash: string): boolean =>
  /^#?\/?(\?.*)?$/.test(hash);

/** What the static page needs from the app: load it, hydrate, resolve once committed. */
export type StartApp = (options: {
  /** Awaited right before the first render, which must find the prerendered DOM as built. */
  beforeRender: () => Promise<void>;
}) => Promise<void>;

const closest = (target: EventTarget | null, selector: string) =>
  target instanceof Element ? target.closest(selector) : null;

/** Links and buttons of the page whose activation the app handles. */
const ACTIONABLE = 'a[href^="#"], button';

/**
 * The prerendered landing page as a first-time visitor gets it: plain HTML
 * and CSS, no React. Its links are hash links and its one widget, the
 * header's メニュー toggle, works here without the app, so the page is
 * readable and usable at once. The app (React, router, store: about five
 * times the rest of the page) is loaded on the first sign that it is needed:
 * a pointer over or on a link or button, keyboard focus reaching one, the
 * sections filled from the API nearing the viewport, a waiting update, or the
 * address changing. It then hydrates this same DOM, so nothing repaints and
 * focus stays where it is. A link or button activated before that is held
 * and activated again once the app has taken over, so it does what it does
 * in the app.
 */
export const runStaticLanding = (startApp: StartApp): void => {
  const root = document.getElementById('root');
  if (!root) return;
  const toggle = root.querySelector<HTMLButtonElement>('.site-header__toggle');
  const nav = root.querySelector<HTMLElement>('.site-nav');
  const toggleIcon = toggle?.querySelector('svg path') ?? null;
  const menuIconPath = toggleIcon?.getAttribute('d') ?? '';
  const copyright = root.querySelector('.site-footer__copy small');

  // The footer's year and company come from the browser and the server
  // (site-footer.tsx leaves them out of the prerender); restored before hydrating.
  if (copyright && copyright.textContent === '')
    copyright.textContent = `© ${new Date().getFullYear()} ${runtimeConfig.companyName}`;

  let menuOpen = false;
  let releaseMenu: (() => void) | null = null;
  const setMenu = (open: boolean) => {
    if (!toggle || !nav) return;
    menuOpen = open;
    toggle.setAttribute('aria-expanded', String(open));
    nav.classList.toggle('is-open', open);
    toggleIcon?.setAttribute('d', open ? CLOSE_ICON_PATH : menuIconPath);
    if (!open && releaseMenu) {
      releaseMenu();
      releaseMenu = null;
    }
  };

  /** Puts back what this page changed, so hydration meets the prerendered DOM. */
  const restorePrerendered = () => {
    setMenu(false);
    if (copyright) copyright.textContent = '';
  };

  // 'static' and 'loading': this file handles the page (the app's code may be
  // on its way); 'hydrating': activations wait for the app; 'app': it has
  // taken over.
  let phase: 'static' | 'loading' | 'hydrating' | 'app' = 'static';
  let held: HTMLElement | null = null;
  let started: Promise<void> | null = null;

  const start = (): Promise<void> => {
    if (started) return started;
    phase = 'loading';
    started = startApp({
      // The app may be ready while the menu is open: hydrating would close it
      // under the reader, so it waits until the menu closes (or a held
      // activation closes it, as navigating does in the app).
      beforeRender: async () => {
        if (menuOpen)
          await new Promise<void>((resolve) => (releaseMenu = resolve));
        restorePrerendered();
        phase = 'hydrating';
      },
    }).then(
      () => {
        phase = 'app';
        detach();
        const el = held;
        held = null;
        if (el?.isConnected) el.click();
      },
      () => {
        // The app's code could not load (offline, a new deploy). This page
        // stays as it is; a visitor on their way elsewhere gets a full load
        // of that address, which has the best chance.
        phase = 'static';
        started = null;
        const el = held;
        held = null;
        if (el instanceof HTMLAnchorElement) {
          window.location.hash = el.hash;
          window.location.reload();
        } else if (!isLandingHash(window.location.hash)) {
          window.location.reload();
        }
      },
    );
    return started;
  };

  const onIntent = (e: Event) => {
    if (closest(e.target, ACTIONABLE)) void start();
  };

  const onClick = (e: MouseEvent) => {
    const el = closest(e.target, ACTIONABLE);
    if (!(el instanceof HTMLElement) || !root.contains(el)) return;
    // A new tab or window: the browser opens the address itself.
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey)
      return;
    // The app's own listeners (on #root) must not see it while hydrating.
    e.stopPropagation();
    const handledHere = phase === 'static' || phase === 'loading';
    if (handledHere && el === toggle) {
      e.preventDefault();
      setMenu(!menuOpen);
      void start();
      return;
    }
    e.preventDefault();
    held = el;
    if (menuOpen) setMenu(false);
    void start();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const handledHere = phase === 'static' || phase === 'loading';
    if (handledHere && menuOpen && e.key === 'Escape') {
      setMenu(false);
      toggle?.focus();
    }
  };

  const onHashChange = () => {
    if (isLandingHash(window.location.hash)) return;
    // As on a first load of that address (public/deep-link.js): the landing
    // page's content gives way until the app renders the page asked for.
    document.documentElement.classList.add('deep-link');
    void start();
  };

  // From the first section filled from the API to the end of the page, so a
  // jump past it (End, a scrollbar drag) still lands on one of them.
  const dataSections: Element[] = [];
  const news = document.getElementById('latest-news')?.closest('section');
  for (
    let el: Element | null | undefined = news;
    el;
    el = el.nextElementSibling
  )
    dataSections.push(el);
  const footer = root.querySelector('.site-footer');
  if (footer) dataSections.push(footer);
  // Loading starts well ahead, so the news is there when it scrolls in.
  const observer =
    'IntersectionObserver' in window
      ? new IntersectionObserver(
          (entries) => {
            if (entries.some((x) => x.isIntersecting)) void start();
          },
          { rootMargin: '0px 0px 600px 0px' },
        )
      : null;
  for (const s of dataSections) observer?.observe(s);
  if (!observer) void start();

  const intents = ['pointerover', 'pointerdown', 'focusin'] as const;
  for (const type of intents)
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  document.addEventListener('click', onClick, true);
  document.addEventListener('keydown', onKeyDown, true);
  window.addEventListener('hashchange', onHashChange);
  // A waiting new version is offered by the app's update prompt.
  const stopUpdates = onUpdateAvailable(() => void start());

  function detach() {
    for (const type of intents)
      document.removeEventListener(type, onIntent, true);
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('keydown', onKeyDown, true);
    window.removeEventListener('hashchange', onHashChange);
    observer?.disconnect();
    stopUpdates();
  }
};
