import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';

/** The landing page's budget for first-load JS+CSS, transfer bytes. */
export const LANDING_BUDGET_KB = 100;

/**
 * Every other page's budget for the JS+CSS of its first load (a visitor or
 * member arriving at that address with an empty cache), transfer bytes in KB.
 * Set from what each page fetched when the budget was written, plus about
 * 10 %: a change that adds more has to say so here. Every public page shares
 * the app's start-up code (react, the store, the shell: about 130 KB); the
 * member pages add their feature's code.
 */
export const ROUTE_BUDGETS_KB: Record<string, number> = {
  promenu: 160,
  amateurmenu: 160,
  event: 155,
  about: 155,
  contact: 165,
  info: 155,
  'info/:id': 155,
  qa: 160,
  terms: 175,
  privacy: 175,
  tokushoho: 170,
  'campaignDetails/:id': 150,
  auth: 170,
  'auth/register': 175,
  'auth/reset': 170,
  'checkin/:ticket': 150,
  'tabs/schedule': 205,
  'tabs/likes': 195,
  'tabs/chat': 185,
  'tabs/chat/:partitionKey': 190,
  'tabs/competitions': 190,
  'tabs/profile': 205,
};

export type PageWeight = {
  /** JS+CSS the page itself fetched, compressed bytes on the wire, in KB. */
  jsCssKb: number;
  /** The files behind that figure, with their transfer KB. */
  files: { url: string; kb: number }[];
  /** Each use of Intl while the page loaded (`countIntlUses`), with its caller. */
  intlUses: string[];
};

/**
 * Counts, in every page of `context`, each use of what creates an ICU object:
 * the Intl constructors, `toLocale…String` and `localeCompare`. A page's
 * first one loads ICU's data on the main thread (a collator about 25 ms, a
 * ja-JP number format 12–18 ms in this Chromium, four times that on a
 * throttled phone); the app formats and sorts without them (lib/format.ts,
 * lib/compare.ts; eslint.config.js keeps its own code so), and this catches
 * a dependency that would.
 */
export const countIntlUses = (context: BrowserContext) =>
  // Text, not a function: the TypeScript runner would add helpers of its own
  // to a function's source, which do not exist in the page.
  context.addInitScript({
    content: `(() => {
      'use strict';
      const uses = [];
      Object.defineProperty(window, '__intlUses', { value: uses });
      const note = (what) =>
        uses.push(what + ' ' + ((new Error().stack || '').split('\\n')[3] || '').trim());
      for (const name of ['Collator', 'DateTimeFormat', 'DisplayNames', 'ListFormat',
        'NumberFormat', 'PluralRules', 'RelativeTimeFormat', 'Segmenter']) {
        const original = Intl[name];
        if (typeof original !== 'function') continue;
        Intl[name] = new Proxy(original, {
          construct(target, args, newTarget) {
            note('Intl.' + name);
            return Reflect.construct(target, args, newTarget);
          },
          apply(target, self, args) {
            note('Intl.' + name);
            return Reflect.apply(target, self, args);
          },
        });
      }
      const wrap = (proto, key, label) => {
        const original = proto[key];
        proto[key] = function (...args) {
          note(label);
          return original.apply(this, args);
        };
      };
      wrap(Number.prototype, 'toLocaleString', 'Number#toLocaleString');
      for (const key of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'])
        wrap(Date.prototype, key, 'Date#' + key);
      wrap(String.prototype, 'localeCompare', 'String#localeCompare');
    })();`,
  });

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/**
 * What the page fetches loading `url` from scratch: loaded until the network
 * has been idle, then a little longer so a timer-started import would still
 * count. Only the page's own requests count: the service worker's precache
 * runs in the background in its own context (see `precacheKb`).
 */
export const measurePage = async (
  page: Page,
  url: string,
): Promise<PageWeight> => {
  const requests: Request[] = [];
  const record = (r: Request) => {
    if (!r.serviceWorker()) requests.push(r);
  };
  page.on('requestfinished', record);
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(2000);
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('requestfinished', record);
  }
  const files: PageWeight['files'] = [];
  let total = 0;
  for (const r of requests) {
    const type = r.resourceType();
    const { pathname } = new URL(r.url());
    const isCode =
      type === 'script' ||
      type === 'stylesheet' ||
      /\.(m?js|css)$/.test(pathname);
    if (!isCode) continue;
    const sizes = await r.sizes();
    total += sizes.responseBodySize;
    files.push({ url: pathname, kb: kb(sizes.responseBodySize) });
  }
  // The pages measured here always count (countIntlUses): a missing list
  // means the counter did not run, which must not read as "none used".
  const intlUses = await page.evaluate('window.__intlUses');
  if (!Array.isArray(intlUses))
    throw new Error(`${url}: the Intl counter did not run in the page`);
  return { jsCssKb: kb(total), files, intlUses: intlUses as string[] };
};

/** A Japanese phone-sized context with no service worker, whose pages never use the HTTP cache. */
const uncachedContext = async (browser: Browser, width = 412) => {
  const context = await browser.newContext({
    viewport: { width, height: 823 },
    locale: 'ja-JP',
    serviceWorkers: 'block',
  });
  await countIntlUses(context);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return { context, page };
};

/**
 * What a first-time visitor's browser fetches for `/`: a fresh context (no
 * cache, no storage, no service worker yet).
 */
export const measureLanding = async (
  browser: Browser,
  baseUrl: string,
  width = 412,
): Promise<PageWeight> => {
  const context = await browser.newContext({
    viewport: { width, height: 823 },
    locale: 'ja-JP',
  });
  await countIntlUses(context);
  try {
    return await measurePage(await context.newPage(), `${baseUrl}/`);
  } finally {
    await context.close();
  }
};

export type RouteWeight = PageWeight & {
  /** The route's pattern, as ROUTE_BUDGETS_KB names it. */
  route: string;
  /** `visitor`, or the member's mail. */
  who: string;
  budgetKb: number;
};

/** Routes with a parameter: a fixed address, or (`from`) the first link to the route on that page. */
const SAMPLES: Record<string, { path: string } | { from: string }> = {
  'info/:id': { from: 'info' },
  'campaignDetails/:id': { path: 'campaignDetails/1' },
  'checkin/:ticket': { path: 'checkin/unknown-ticket' },
  'tabs/chat/:partitionKey': { from: 'tabs/chat' },
};

/**
 * The first-load JS+CSS of every page in ROUTE_BUDGETS_KB: the public ones as
 * a visitor, the member tabs as each of `members` (logged in once through the
 * form; each page is then loaded afresh, the login restored from storage as
 * on a member's phone). A route with a parameter is reached as SAMPLES says.
 */
export const measureRoutes = async (
  browser: Browser,
  baseUrl: string,
  members: readonly string[],
  login: (page: Page, baseUrl: string, mail: string) => Promise<void>,
): Promise<RouteWeight[]> => {
  const out: RouteWeight[] = [];
  const measureAll = async (page: Page, who: string, routes: string[]) => {
    for (const route of routes) {
      const sample = SAMPLES[route];
      let appPath = sample && 'path' in sample ? sample.path : route;
      if (sample && 'from' in sample) {
        await page.goto(`${baseUrl}/#/${sample.from}`, {
          waitUntil: 'networkidle',
        });
        const prefix = `#/${route.slice(0, route.indexOf(':'))}`;
        const link = page.locator(`a[href^="${prefix}"]`).first();
        await link.waitFor();
        appPath = (await link.getAttribute('href'))!.slice(2);
      }
      await page.goto('about:blank');
      const weight = await measurePage(page, `${baseUrl}/#/${appPath}`);
      out.push({
        route,
        who,
        budgetKb: ROUTE_BUDGETS_KB[route]!,
        ...weight,
      });
    }
  };
  const routes = Object.keys(ROUTE_BUDGETS_KB);
  const visitor = await uncachedContext(browser);
  try {
    await measureAll(
      visitor.page,
      'visitor',
      routes.filter((r) => !r.startsWith('tabs/')),
    );
  } finally {
    await visitor.context.close();
  }
  for (const mail of members) {
    const member = await uncachedContext(browser);
    try {
      await login(member.page, baseUrl, mail);
      await measureAll(
        member.page,
        mail,
        routes.filter((r) => r.startsWith('tabs/')),
      );
    } finally {
      await member.context.close();
    }
  }
  return out;
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
