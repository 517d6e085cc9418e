import { SPLASH_MS } from '@/config/env';

/**
 * The splash is static markup in index.html so it paints before any script;
 * this fades it out once 1500 ms have passed since navigation start.
 */
export const scheduleSplashHide = (
  doc: Document = document,
  ms: number = SPLASH_MS,
): void => {
  const splash = doc.getElementById('splash');
  if (!splash) return;
  const wait = Math.max(0, ms - performance.now());
  window.setTimeout(() => {
    splash.classList.add('splash--hidden');
    // Remove it after the fade so it can never cover or intercept anything.
    window.setTimeout(() => splash.remove(), 400);
  }, wait);
};
