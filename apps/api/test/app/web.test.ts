import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from '../helper.js';

describe('serving the web app', () => {
  let h: Harness;
  let web: string;
  before(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'proam-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(
      path.join(web, 'index.html'),
      '<html lang="ja"><head><meta name="proam-config" content="__PROAM_CONFIG__"></head><body></body></html>',
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
