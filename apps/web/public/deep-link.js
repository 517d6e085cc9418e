/* global location, document */
// index.html carries the landing page prerendered. This runs before the body
// is parsed: on any other address (#/about, #/tabs/…) it hides that page,
// which must never paint there; src/main.tsx starts the app, which renders the right one.
// There it also preloads the start-up chunks the build names in data-start
// (vite-plugins/start-chunks.ts), which that page needs at once.
if (!/^#?\/?(\?.*)?$/.test(location.hash)) {
  document.documentElement.classList.add('deep-link');
  var start = document.currentScript && document.currentScript.dataset.start;
  if (start) {
    start.split(' ').forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
  }
}
