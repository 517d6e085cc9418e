import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';

const ROOT_DIV = '<div id="root"></div>';

/**
 * Writes the landing page's HTML into the built index.html, so the page (and
 * its largest text) paints from the HTML and CSS alone, before any script
 * has loaded. A first-time visitor uses it as it is until the app is needed
 * (src/boot/static-landing.ts), which then hydrates it. Rendered with
 * react-dom/server through Vite's SSR module loader (src/prerender.tsx), so
 * it is the same code with the same aliases as the client build. Runs after
 * the bundle is written and before vite-plugin-pwa lists the files, so the
 * service worker caches the final index.html.
 */
export const prerenderLanding = (): Plugin => {
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
        try {
          const mod = (await server.ssrLoadModule('/src/prerender.tsx')) as {
            renderLanding: () => Promise<string>;
          };
          html = await mod.renderLanding();
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
        writeFileSync(
          file,
          page.replace(
            ROOT_DIV,
            () => `<div id="root" data-prerendered>${html}</div>`,
          ),
        );
      },
    },
  };
};
