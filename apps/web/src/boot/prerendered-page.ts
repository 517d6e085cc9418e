import { hashPath } from '@/app/route-match';
import { isLandingHash } from './static-landing';

/**
 * The page whose prerendered HTML fits the address `hash`: `''` for the
 * landing page, a path of app/prerendered-pages.ts for `#/path` exactly
 * (with a query the page may render otherwise), null for anything else.
 * public/deep-link.js, which puts that page's HTML in place, reads the
 * address the same way (a unit test runs it).
 */
export const prerenderedPathOf = (hash: string): string | null => {
  if (isLandingHash(hash)) return '';
  if (!/^#\/[^?#]*$/.test(hash)) return null;
  return hashPath(hash);
};

/** What does nothing in prerendered HTML until the app runs it. */
const NEEDS_APP = 'button, a[href^="#"]:not([href^="#/"])';

/**
 * Until the app has hydrated the page public/deep-link.js put in place, its
 * buttons and in-page links (`#id`, which the router would take for an
 * address) would do nothing or the wrong thing: a click on one is held and
 * made again once the app runs it, as on the static landing page. Links to
 * other pages (`#/…`) work as they are. Returns what to call once the app
 * has rendered.
 */
export const holdActivations = (doc: Document): (() => void) => {
  let held: HTMLElement | null = null;
  const onClick = (e: MouseEvent) => {
    const el = e.target instanceof Element ? e.target.closest(NEEDS_APP) : null;
    if (
      !(el instanceof HTMLElement) ||
      !doc.getElementById('root')?.contains(el)
    )
      return;
    e.preventDefault();
    e.stopPropagation();
    held = el;
  };
  doc.addEventListener('click', onClick, true);
  return () => {
    doc.removeEventListener('click', onClick, true);
    if (held?.isConnected) held.click();
    held = null;
  };
};
