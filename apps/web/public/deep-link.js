/* global location, document, window */
// index.html carries the landing page prerendered, and after it other pages'
// HTML, one <template data-page="…"> each (vite-plugins/prerender.ts; the
// server drops those its settings would render otherwise). This runs before
// the body is parsed. On any other address (#/about, #/tabs/…) it hides the
// landing page, which must never paint there. Once the document is parsed,
// before any module script runs, a visitor on a page with a template gets
// that page in its place, so it paints with the CSS; src/main.tsx then starts
// the app, which hydrates it (data-prerendered names it). So does a member
// with a stored login on a member tab, with that tab's template (marked
// data-member; the tabs are named in data-member-pages). Anywhere else
// (the build names the pages in data-pages) it preloads the start-up chunks the
// build names in data-start (vite-plugins/start-chunks.ts), which the app
// needs at once there: from the head, or once parsed where the server
// dropped the page's template.
(function () {
  var html = document.documentElement;

  function stored(key) {
    try {
      return Boolean(localStorage.getItem(key));
    } catch {
      return false;
    }
  }

  // A member's header differs from the prerendered one (マイページ, not
  // ログイン; base.css hides that link until the app has rendered): the keys of
  // src/features/auth/token-storage.ts (a unit test keeps them equal). A
  // login stored on the web (the native apps keep theirs elsewhere) also
  // gets its member tab prerendered.
  var storedLogin = stored('refresh_token');
  var isMember = 'Capacitor' in window || storedLogin || stored('checkin');
  if (isMember) html.classList.add('member');

  if (/^#?\/?(\?.*)?$/.test(location.hash)) return;
  html.classList.add('deep-link');
  var script = document.currentScript;
  var start = script && script.dataset.start;

  function preloadStart() {
    if (!start) return;
    start.split(' ').forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
  }

  // As prerenderedPathOf (src/boot/prerendered-page.ts): `#/path` exactly.
  var path = /^#\/[^?#]*$/.test(location.hash)
    ? location.hash.replace(/^#\/+|\/+$/g, '')
    : null;
  var pages = ((script && script.dataset.pages) || '').split(' ');
  var memberPages = ((script && script.dataset.memberPages) || '').split(' ');
  // A visitor gets a public page's template, a returning member their tab's.
  var returning = storedLogin;
  var wanted = returning
    ? memberPages.indexOf(path) >= 0
    : !isMember && pages.indexOf(path) >= 0;
  if (path === null || !wanted) {
    preloadStart();
    return;
  }

  function showPage() {
    if (document.readyState === 'loading') return;
    document.removeEventListener('readystatechange', showPage);
    var root = document.getElementById('root');
    var templates = document.querySelectorAll('template[data-page]');
    var template = null;
    for (var i = 0; i < templates.length; i++)
      if (
        templates[i].getAttribute('data-page') === path &&
        templates[i].hasAttribute('data-member') === returning
      )
        template = templates[i];
    if (!root || !template || !root.hasAttribute('data-prerendered')) {
      preloadStart();
      return;
    }
    root.replaceChildren(document.importNode(template.content, true));
    root.setAttribute('data-prerendered', path);
    // A member's tab comes with the member's header: nothing to hide there.
    if (returning) {
      root.setAttribute('data-member', '');
      html.classList.remove('member');
    }
    var title = template.getAttribute('data-title');
    if (title) document.title = title;
    html.classList.remove('deep-link');
  }
  if (document.readyState === 'loading')
    document.addEventListener('readystatechange', showPage);
  else showPage();
})();
