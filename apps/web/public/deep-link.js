/* global location, document, window */
// index.html carries the landing page prerendered, and after it other pages'
// HTML, one <template data-page="…"> each (vite-plugins/prerender.ts; the
// server drops those its settings would render otherwise). This runs before
// the body is parsed. On any other address (#/about, #/tabs/…) it hides the
// landing page, which must never paint there. Once the document is parsed,
// before any module script runs, a visitor on a page with a template gets
// that page in its place, so it paints with the CSS; src/main.tsx then starts
// the app, which hydrates it (data-prerendered names it). So does a returning
// pro or amateur on a member tab, with that tab's template for their member
// type (data-member; the tabs are named in data-member-pages). Anywhere else
// (the build names the pages in data-pages) it preloads the start-up chunks the
// build names in data-start (vite-plugins/start-chunks.ts), which the app
// needs at once there: from the head, or once parsed where the server
// dropped the page's template.
(function () {
  var html = document.documentElement;

  // A member's header differs from the prerendered one (マイページ, not
  // ログイン; base.css hides that link until the app has rendered): the keys of
  // src/features/auth/token-storage.ts (a unit test keeps them equal).
  function member() {
    if ('Capacitor' in window) return true;
    try {
      return Boolean(
        localStorage.getItem('refresh_token') ||
        localStorage.getItem('checkin'),
      );
    } catch {
      return false;
    }
  }

  var isMember = member();
  if (isMember) html.classList.add('member');

  // The member type stored with a login on the web (MEMBER_TYPE_KEY of
  // token-storage.ts): a returning pro's or amateur's tab is prerendered too.
  function memberType() {
    try {
      if (!localStorage.getItem('refresh_token')) return null;
      var type = localStorage.getItem('member_type');
      return type === 'pro' || type === 'amature' ? type : null;
    } catch {
      return null;
    }
  }

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
  var type = isMember ? memberType() : null;
  var wanted = type
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
        templates[i].getAttribute('data-member') === type
      )
        template = templates[i];
    if (!root || !template || !root.hasAttribute('data-prerendered')) {
      preloadStart();
      return;
    }
    root.replaceChildren(document.importNode(template.content, true));
    root.setAttribute('data-prerendered', path);
    // A member's tab comes with the member's header: nothing to hide there.
    if (type) {
      root.setAttribute('data-member', type);
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
