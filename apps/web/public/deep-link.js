/* global location, document */
// index.html carries the landing page prerendered. This runs before the body
// is parsed: on any other address (#/about, #/tabs/…) it hides that page,
// which must never paint there; src/main.tsx starts the app, which renders the right one.
if (!/^#?\/?(\?.*)?$/.test(location.hash)) {
  document.documentElement.classList.add('deep-link');
}
