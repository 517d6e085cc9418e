import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Request } from 'playwright-core';

/** The landing page's budget for first-load JS+CSS, transfer bytes (issue target). */
export const LANDING_BUDGET_KB = 100;

export type LandingWeight = {
  /** JS+CSS the page itself fetched, compressed bytes on the wire, in KB. */
  jsCssKb: number;
  /** The files behind that figure, with their transfer KB. */
  files: { url: string; kb: number }[];
};

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/**
 * What a first-time visitor's browser fetches for `/`: a fresh context (no
 * cache, no storage, no service worker yet), loaded until the network has
 * been idle, then a little longer so a timer-started import would still
 * count. Only the page's own requests count: the service worker's precache
 * runs in the background in its own context (see `precacheKb`).
 */
export const measureLanding = async (
  browser: Browser,
  baseUrl: string,
  width = 412,
): Promise<LandingWeight> => {
  const context = await browser.newContext({
    viewport: { width, height: 823 },
    locale: 'ja-JP',
  });
  try {
    const page = await context.newPage();
    const requests: Request[] = [];
    page.on('requestfinished', (r) => {
      if (!r.serviceWorker()) requests.push(r);
    });
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(2000);
    await page.waitForLoadState('networkidle');
    const files: LandingWeight['files'] = [];
    let total = 0;
    for (const r of requests) {
      const type = r.resourceType();
      const url = new URL(r.url());
      const isCode =
        type === 'script' ||
        type === 'stylesheet' ||
        /\.(m?js|css)$/.test(url.pathname);
      if (!isCode) continue;
      const sizes = await r.sizes();
      total += sizes.responseBodySize;
      files.push({ url: url.pathname, kb: kb(sizes.responseBodySize) });
    }
    return { jsCssKb: kb(total), files };
  } finally {
    await context.close();
  }
};

/**
 * What the service worker precaches after the first visit, from the build's
 * sw.js: brotli bytes where the build wrote a .br file (the server sends
 * those), else the raw file. It is fetched in the background, not by the page.
 */
export const precacheKb = (
  dist: string,
): { entries: number; kb: number; rawKb: number } => {
  const sw = readFileSync(path.join(dist, 'sw.js'), 'utf8');
  const urls = [...sw.matchAll(/url:"([^"]+)"/g)].map((m) => m[1]!);
  let wire = 0;
  let raw = 0;
  for (const url of urls) {
    const file = path.join(dist, url);
    if (!existsSync(file)) continue;
    const size = statSync(file).size;
    raw += size;
    wire += existsSync(`${file}.br`) ? statSync(`${file}.br`).size : size;
  }
  return { entries: urls.length, kb: kb(wire), rawKb: kb(raw) };
};
