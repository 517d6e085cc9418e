import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

const escapeAttr = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/**
 * Serves the built web app at `/` and uploaded media at `/media/`. The page
 * learns its run-time settings (company details, Stripe key) from a meta tag
 * filled here, so one build serves every deployment without inline scripts.
 */
export const webPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const mediaRoot = path.join(config.dataDir, 'media');
    mkdirSync(mediaRoot, { recursive: true });
    await app.register(fastifyStatic, {
      root: mediaRoot,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      // Uploaded files are never run as a page, whatever their bytes say.
      setHeaders: (reply) => {
        reply.header('Content-Security-Policy', "default-src 'none'; sandbox");
        reply.header('X-Content-Type-Options', 'nosniff');
        reply.header('Cache-Control', 'public, max-age=86400');
      },
    });

    const indexFile = path.join(config.webDist, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn(
        { webDist: config.webDist },
        'web build not found: only the API is served',
      );
      return;
    }
    // The web build's client credentials identify the app, they are not a secret (docs/security.md §1.7).
    const webClient =
      config.apiClients.find((c) => c.name === 'web') ?? config.apiClients[0];
    const runtime = JSON.stringify({
      companyName: config.companyName,
      companyAddress: config.companyAddress,
      companyPhone: config.companyPhone,
      companyRepresentative: config.companyRepresentative,
      companyMail: config.companyMail,
      // Only when payments are on: the page offers online payment exactly when the server takes it.
      stripePublishableKey: config.stripe?.publishableKey ?? null,
      apiBase: '/api',
      apiClient: webClient ? `${webClient.name}:${webClient.code}` : null,
    });
    const html = readFileSync(indexFile, 'utf8').replace(
      '__PROAM_CONFIG__',
      escapeAttr(runtime),
    );

    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      index: false,
      wildcard: true,
      dotfiles: 'deny',
      // The web build writes .br and .gz beside each asset (apps/web/scripts/precompress.mjs).
      preCompressed: true,
      setHeaders: (reply, file) => {
        // Hashed assets never change; everything else is revalidated.
        reply.header(
          'Cache-Control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    const sendIndex = (_req: unknown, reply: FastifyReply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(html);
    app.get(
      '/',
      { config: { auth: 'none' }, schema: { hide: true } },
      sendIndex,
    );
    app.get(
      '/index.html',
      { config: { auth: 'none' }, schema: { hide: true } },
      sendIndex,
    );
  },
  { name: 'web', dependencies: ['config'] },
);
