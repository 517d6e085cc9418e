import { scheduleSplashHide } from '@/components/splash';
import { CHECKIN_KEY, REFRESH_TOKEN_KEY } from '@/features/auth/token-storage';
import { holdActivations } from '@/boot/prerendered-page';
import { startApp } from '@/boot/start-app';
import { isLandingHash, runStaticLanding } from '@/boot/static-landing';
import '@/styles/base.css';
import '@/styles/layout.css';
import '@/styles/components.css';
import '@/styles/pages.css';
// With the first CSS: the legal pages' HTML is prerendered (app/prerendered-pages.ts).
import '@/styles/legal.css';
import { isProduction } from '@/config/env';

scheduleSplashHide();

const stored = (key: string): boolean => {
  try {
    return Boolean(localStorage.getItem(key));
  } catch {
    return false;
  }
};

/**
 * Who gets the app at once: anyone on another page than the landing page
 * (a visitor there sees that page's prerendered HTML, if it has one, which
 * the app then hydrates),
 * anyone with a stored login or check-in (their header and pages differ from
 * the prerendered HTML), and the Capacitor shell. A first-time visitor on the
 * landing page gets the prerendered HTML, usable as it is, and the app only
 * when it is needed (boot/static-landing.ts): the weight of React, the router
 * and the store stays off the first load. start-app.ts itself is small and
 * loads with this file, so a member or a deep link loses no round trip.
 */
const member =
  stored(REFRESH_TOKEN_KEY) || stored(CHECKIN_KEY) || 'Capacitor' in window;
const appNow = !isLandingHash(window.location.hash) || member;

// Another page's prerendered HTML, put in place by public/deep-link.js: what
// needs the app waits for it.
const release = document
  .getElementById('root')
  ?.getAttribute('data-prerendered')
  ? holdActivations(document)
  : null;

/**
 * Resolves once the browser has painted a frame. After the document is
 * parsed, the app's modules would otherwise run back to back and the first
 * frame with a returning member's prerendered tab would wait for them.
 */
const afterPaint = () =>
  new Promise<void>((resolve) =>
    requestAnimationFrame(() =>
      requestAnimationFrame(() => window.setTimeout(resolve, 0)),
    ),
  );

if (appNow) {
  const start = () =>
    startApp({ beforeRender: () => Promise.resolve() }).then(release);
  // A member's tab put in place by deep-link.js (data-member) paints first;
  // a tab opened in the background paints nothing (nor runs animation
  // frames) until shown, so the app starts at once there.
  if (
    document.getElementById('root')?.hasAttribute('data-member') &&
    document.visibilityState !== 'hidden'
  )
    void afterPaint().then(start);
  else void start();
} else runStaticLanding(startApp);

// The service worker (offline app shell) registers after the first load.
if (isProduction && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    void import('@/pwa/register').then((m) => m.registerServiceWorker());
  });
}
