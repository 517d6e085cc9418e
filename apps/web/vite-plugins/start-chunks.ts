import type { Plugin } from 'vite';

/** The codeSplitting groups of vite.config.ts that every page but the landing needs at once. */
export const START_CHUNKS = ['react', 'state', 'shell'] as const;

/**
 * Names the start-up chunks on the `deep-link.js` tag of the built
 * index.html (`data-start`), so that on any address but the landing page
 * that script, which runs while the head is parsed, preloads them at once:
 * they arrive alongside the entry instead of after it has run and asked for
 * them. The landing page never fetches them before the app is needed.
 */
export const startChunks = (): Plugin => ({
  name: 'proam:start-chunks',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const bundle = ctx.bundle;
      if (!bundle) return html;
      const files = START_CHUNKS.map((name) => {
        const chunk = Object.values(bundle).find(
          (c) => c.type === 'chunk' && c.name === name && !c.isEntry,
        );
        if (!chunk) throw new Error(`start-chunks: no chunk named ${name}`);
        return `/${chunk.fileName}`;
      });
      const tag = '<script src="/deep-link.js"></script>';
      if (!html.includes(tag))
        throw new Error(`start-chunks: no ${tag} in index.html`);
      return html.replace(
        tag,
        `<script src="/deep-link.js" data-start="${files.join(' ')}"></script>`,
      );
    },
  },
});
