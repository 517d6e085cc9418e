import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  brotliCompressSync,
  brotliDecompressSync,
  gunzipSync,
} from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from '../helper.js';

const attr = (value: object) =>
  JSON.stringify(value)
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
const company = (companyName: string) => ({
  companyName,
  companyAddress: '〒100-0005 東京都千代田区丸の内一丁目0番0号 プロアムビル5階',
  companyPhone: '03-0000-0000',
  companyRepresentative: '山田 太郎',
  companyMail: 'contact@example.jp',
});
/** Prerendered pages as the web build writes them (apps/web/vite-plugins/prerender.ts). */
const PAGES = [
  '<template data-page="event"><h1>event</h1></template>',
  '<template data-page="qa" data-payment="at-course"><h1>qa at the course</h1></template>',
  '<template data-page="qa" data-payment="online"><h1>qa online</h1></template>',
  `<template data-page="about" data-company="${attr(company('株式会社プロアム・コンサルティング'))}"><h1>about, the defaults</h1></template>`,
  `<template data-page="terms" data-payment="online" data-company="${attr(company('株式会社テスト<&>"'))}"><h1>terms, this deployment</h1></template>`,
  '<template data-page="tabs/schedule" data-member><h1>a member\'s schedule</h1></template>',
].join('');

describe('serving the web app', () => {
  let h: Harness;
  let web: string;
  before(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'proam-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(
      path.join(web, 'index.html'),
      `<html lang="ja"><head><meta name="proam-config" content="__PROAM_CONFIG__"></head><body><div id="root" data-prerendered></div>${PAGES}</body></html>`,
    );
    const js = 'console.log("hello");'.repeat(100);
    writeFileSync(path.join(web, 'assets', 'app-abc123.js'), js);
    writeFileSync(
      path.join(web, 'assets', 'app-abc123.js.br'),
      brotliCompressSync(js),
    );
    h = await harness('pglite', {
      WEB_DIST: web,
      COMPANY_NAME: '株式会社テスト<&>"',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      API_CLIENTS: 'ios:ios-code-1,web:web-code-12',
    });
  });
  after(async () => {
    await h.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('fills the run-time settings into index.html, escaped, and never caches it', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/' });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /text\/html/);
    assert.equal(r.headers['cache-control'], 'no-cache');
    const content = /content="([^"]*)"/.exec(r.body)![1]!;
    assert.ok(
      !content.includes('"') && !content.includes('<'),
      'attribute-safe',
    );
    const unescaped = content
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    assert.deepEqual(JSON.parse(unescaped), {
      companyName: '株式会社テスト<&>"',
      companyAddress:
        '〒100-0005 東京都千代田区丸の内一丁目0番0号 プロアムビル5階',
      companyPhone: '03-0000-0000',
      companyRepresentative: '山田 太郎',
      companyMail: 'contact@example.jp',
      stripePublishableKey: 'pk_test_abc123',
      apiBase: '/api',
      apiClient: 'web:web-code-12',
    });
    assert.match(
      String(r.headers['content-security-policy']),
      /script-src 'self'/,
    );
    const csp = String(r.headers['content-security-policy']);
    assert.match(
      csp,
      /script-src 'self' https:\/\/js\.stripe\.com/,
      'Stripe only with a key',
    );
    assert.match(csp, /connect-src 'self' https:\/\/api\.stripe\.com/);
  });

  it('keeps only the prerendered pages this deployment renders the same', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/' });
    const kept = [...r.body.matchAll(/<h1>([^<]*)<\/h1>/g)].map((m) => m[1]);
    // Payments are on and the operator is not the default one.
    // A member's tab depends on neither: it stays.
    assert.deepEqual(kept, [
      'event',
      'qa online',
      'terms, this deployment',
      "a member's schedule",
    ]);
    assert.match(r.body, /<div id="root" data-prerendered><\/div><template/);
  });

  it('sends index.html compressed to a browser that accepts it, the same page', async () => {
    const plain = await h.app.inject({ method: 'GET', url: '/' });
    assert.equal(plain.headers['content-encoding'], undefined);
    const br = await h.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.equal(br.headers['cache-control'], 'no-cache');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    const gz = await h.app.inject({
      method: 'GET',
      url: '/index.html',
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
    const identity = await h.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'identity' },
    });
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.equal(identity.body, plain.body);
  });

  it('serves hashed assets precompressed and cached for a year', async () => {
    const br = await h.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(
      br.headers['cache-control'],
      'public, max-age=31536000, immutable',
    );
    const plain = await h.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
    });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.startsWith('console.log'));
  });

  it('never serves files outside the build or the media folder', async () => {
    for (const url of [
      '/../package.json',
      '/assets/..%2f..%2fpackage.json',
      '/media/..%2fjwt-secret',
      '/media/../jwt-secret',
      '/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const r = await h.app.inject({ method: 'GET', url });
      assert.ok(
        r.statusCode === 404 || r.statusCode === 400 || r.statusCode === 403,
        `${url} → ${r.statusCode}`,
      );
      assert.ok(
        !r.body.includes('jwt') || r.body.includes('"status":"NG"'),
        url,
      );
    }
  });
});
