import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * index.html as each encoding sends it, compressed once per process: it
 * carries the prerendered pages (about 160 KB, 15 KB brotli). Compressed on
 * libuv's thread pool while the server starts, so the start does not wait.
 */
const encodeIndex = (html: string) => {
  const bytes = Buffer.from(html);
  const encoded = Promise.all([
    brotli(bytes, {
      params: {
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipped(bytes, { level: 9 }),
  ]).then(([br, gz]) => ({ br, gzip: gz, identity: bytes }));
  // Awaited by the first request; never an unhandled rejection before it.
  encoded.catch(() => undefined);
  return encoded;
};

const unescapeAttr = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

type Company = Pick<
  Config,
  | 'companyName'
  | 'companyAddress'
  | 'companyPhone'
  | 'companyRepresentative'
  | 'companyMail'
>;

/**
 * index.html without the prerendered pages this deployment would render
 * otherwise. The web build writes them as `<template data-page="…">`
 * (apps/web/vite-plugins/prerender.ts): `data-payment` names the payment
 * mode a page was rendered for, `data-company` the operator's details it
 * shows. A page dropped here is rendered by the app once its code has
 * loaded; one kept must match the app's first render exactly, or hydration
 * would redraw it.
 */
export const keepPagesFor = (
  html: string,
  deployment: { online: boolean; company: Company },
): string =>
  html.replace(
    /<template data-page="[^"]*"([^>]*)>[\s\S]*?<\/template>/g,
    (page, attrs: string) => {
      const mode = /\sdata-payment="([^"]*)"/.exec(attrs)?.[1];
      if (mode && mode !== (deployment.online ? 'online' : 'at-course'))
        return '';
      const shown = /\sdata-company="([^"]*)"/.exec(attrs)?.[1];
      if (shown === undefined) return page;
      const built = JSON.parse(unescapeAttr(shown)) as Record<string, unknown>;
      const same = (Object.keys(deployment.company) as (keyof Company)[]).every(
        (k) => built[k] === deployment.company[k],
      );
      return same ? page : '';
    },
  );

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
    const company: Company = {
      companyName: config.companyName,
      companyAddress: config.companyAddress,
      companyPhone: config.companyPhone,
      companyRepresentative: config.companyRepresentative,
      companyMail: config.companyMail,
    };
    const runtime = JSON.stringify({
      ...company,
      // Only when payments are on: the page offers online payment exactly when the server takes it.
      stripePublishableKey: config.stripe?.publishableKey ?? null,
      apiBase: '/api',
      apiClient: webClient ? `${webClient.name}:${webClient.code}` : null,
    });
    const html = keepPagesFor(
      readFileSync(indexFile, 'utf8').replace(
        '__PROAM_CONFIG__',
        escapeAttr(runtime),
      ),
      { online: config.stripe !== null, company },
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
    const index = encodeIndex(html);
    const sendIndex = async (req: FastifyRequest, reply: FastifyReply) => {
      const accepted = req.headers['accept-encoding'];
      const encoding =
        (accepted && negotiate(accepted, ['br', 'gzip'])) || 'identity';
      const body = (await index)[encoding];
      reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Accept-Encoding');
      if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
      return reply.send(body);
    };
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
