import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import type {
  PaymentMode,
  PrerenderedPage,
} from '../src/app/prerendered-pages';

const ROOT_DIV = '<div id="root"></div>';

const escapeAttr = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/** What src/prerender.tsx exports. */
type PrerenderModule = {
  renderPage: (
    path: string,
    onTitle: (title: string) => void,
  ) => Promise<string>;
  renderPageIn: (
    path: string,
    mode: PaymentMode,
    onTitle: (title: string) => void,
  ) => Promise<string>;
  renderMemberTab: (
    path: string,
    onTitle: (title: string) => void,
  ) => Promise<string>;
  prerenderedCompany: () => Record<string, string>;
  PRERENDERED_PAGES: readonly PrerenderedPage[];
  MEMBER_TABS: readonly string[];
};

/**
 * Writes the landing page's HTML into the built index.html, so the page (and
 * its largest text) paints from the HTML and CSS alone, before any script
 * has loaded. A first-time visitor uses it as it is until the app is needed
 * (src/boot/static-landing.ts), which then hydrates it.
 *
 * The other pages of src/app/prerendered-pages.ts follow it, each in a
 * `<template data-page="…">` (one per payment mode, `data-payment`, where
 * the page depends on it; `data-company` with the operator's details where
 * it shows them). Templates are inert, so they cost the landing page bytes
 * (about 11 KB brotli as served: the header and footer repeat) but no
 * rendering. The server drops those its settings would render otherwise
 * (apps/api/src/plugins/web.ts); on a page's own address public/deep-link.js
 * puts its HTML in place as soon as the document is parsed, and the app
 * hydrates it.
 *
 * Rendered with react-dom/server through Vite's SSR module loader
 * (src/prerender.tsx), so it is the same code with the same aliases as the
 * client build. Runs after the bundle is written and before vite-plugin-pwa
 * lists the files, so the service worker caches the final index.html.
 */
export const prerenderPages = (): Plugin => {
  let config: ResolvedConfig;
  return {
    name: 'proam:prerender-landing',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      async handler() {
        if (config.build.ssr) return;
        const server = await createServer({
          configFile: config.configFile,
          root: config.root,
          mode: config.mode,
          logLevel: 'error',
          appType: 'custom',
          // Only modules are loaded: no file watching, no HMR socket.
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
        });
        let html: string;
        const templates: string[] = [];
        let pages: PrerenderModule['PRERENDERED_PAGES'];
        let tabs: PrerenderModule['MEMBER_TABS'];
        /** One page's template; the title goes with the HTML (deep-link.js sets it, as the page would). */
        const addTemplate = async (
          path: string,
          attrs: string,
          render: (onTitle: (title: string) => void) => Promise<string>,
        ) => {
          let title = '';
          const body = await render((t) => (title = t));
          if (!title) throw new Error(`prerender: #/${path} sets no title`);
          templates.push(
            `<template data-page="${path}" data-title="${escapeAttr(title)}"${attrs}>${body}</template>`,
          );
        };
        try {
          const mod = (await server.ssrLoadModule(
            '/src/prerender.tsx',
          )) as PrerenderModule;
          html = await mod.renderPage('', () => {});
          pages = mod.PRERENDERED_PAGES;
          const companyAttr = ` data-company="${escapeAttr(JSON.stringify(mod.prerenderedCompany()))}"`;
          for (const page of pages) {
            const company = page.company ? companyAttr : '';
            const modes = page.payment
              ? (['at-course', 'online'] as const)
              : [null];
            for (const mode of modes) {
              const payment = mode ? ` data-payment="${mode}"` : '';
              await addTemplate(page.path, `${payment}${company}`, (onTitle) =>
                mode
                  ? mod.renderPageIn(page.path, mode, onTitle)
                  : mod.renderPage(page.path, onTitle),
              );
            }
          }
          // A returning member's tabs, while the stored login is confirmed.
          tabs = mod.MEMBER_TABS;
          for (const tab of tabs)
            await addTemplate(tab, ' data-member', (onTitle) =>
              mod.renderMemberTab(tab, onTitle),
            );
        } finally {
          await server.close();
        }
        const file = path.resolve(
          config.root,
          config.build.outDir,
          'index.html',
        );
        const page = readFileSync(file, 'utf8');
        if (!page.includes(ROOT_DIV))
          throw new Error(`prerender: no ${ROOT_DIV} in ${file}`);
        // A function replacement, so `$` in the page's text is taken literally.
        const DEEP_LINK = '<script src="/deep-link.js"';
        if (!page.includes(DEEP_LINK))
          throw new Error(`prerender: no ${DEEP_LINK} in ${file}`);
        // Named on deep-link.js's tag too: elsewhere it preloads the app's
        // start-up chunks from the head, without waiting for the templates.
        const paths = pages.map((p) => p.path).join(' ');
        writeFileSync(
          file,
          page
            .replace(
              ROOT_DIV,
              () =>
                `<div id="root" data-prerendered>${html}</div>${templates.join('')}`,
            )
            .replace(
              DEEP_LINK,
              () =>
                `${DEEP_LINK} data-pages="${paths}" data-member-pages="${tabs.join(' ')}"`,
            ),
        );
      },
    },
  };
};
