/**
 * The installable web app against the real server: the manifest is linked
 * and fetchable with its icons, the service worker registers from a module
 * (the CSP allows no inline script), and the landing page opens offline.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serviceWorkerActive } from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

describe('PWA', () => {
  it('is installable and opens the landing page offline', async () => {
    const context = await suite.browser.newContext({ locale: 'ja-JP' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${suite.server.baseUrl}/`);
    await page.locator('#hero-title').waitFor();

    // The manifest: linked, served, Japanese, with both icons.
    const href = await page
      .locator('link[rel="manifest"]')
      .getAttribute('href');
    assert.ok(href);
    const res = await fetch(new URL(href, suite.server.baseUrl));
    assert.equal(res.status, 200);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      lang: string;
      theme_color: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    assert.match(manifest.name, /ProAm Connect/);
    assert.equal(manifest.lang, 'ja');
    assert.equal(manifest.theme_color, '#0f4d32');
    assert.equal(manifest.display, 'standalone');
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size);
      assert.ok(icon, `icon ${size}`);
      const img = await fetch(new URL(icon.src, suite.server.baseUrl));
      assert.equal(img.status, 200);
      assert.equal(img.headers.get('content-type'), 'image/png');
      const bytes = Buffer.from(await img.arrayBuffer());
      assert.equal(bytes.readUInt32BE(16), Number(size.split('x')[0]));
    }

    // The service worker registers and takes charge of the app shell.
    const state = await serviceWorkerActive(page);
    assert.equal(state.state, 'activated');

    // What Chromium itself says: no manifest errors, nothing standing in the way of installing.
    const cdp = await page.context().newCDPSession(page);
    const app = (await cdp.send('Page.getAppManifest')) as {
      errors: { message: string }[];
    };
    assert.deepEqual(app.errors, []);
    const install = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // The test's throwaway browser profile counts as incognito; nothing else may stand in the way.
    assert.deepEqual(
      install.installabilityErrors
        .map((e) => e.errorId)
        .filter((id) => id !== 'in-incognito'),
      [],
    );
    assert.equal(state.scope, `${suite.server.baseUrl}/`);
    assert.deepEqual(errors, []);

    // Offline: the landing page still opens from the cache.
    await context.setOffline(true);
    await page.reload();
    await page.locator('#hero-title').waitFor({ timeout: 10_000 });
    assert.match((await page.locator('#hero-title').textContent()) ?? '', /\S/);
    assert.ok(
      await page.evaluate(() => navigator.serviceWorker.controller !== null),
    );
    await context.close();
  });
});
