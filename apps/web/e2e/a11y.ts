/**
 * Shared by the axe spec (a11y.spec.ts) and the web audit (audits/web-audit.ts):
 * the route list read from the web's router, how to reach each route's page in
 * a browser, and an axe run that keeps the serious and critical findings.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import ts from 'typescript';

const webRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
);

export type AppRoute = {
  /** The router's pattern without the leading slash, e.g. `info/:id`; '' is the landing page. */
  pattern: string;
  /**
   * `tabs`: the member area (needs a login); `entry`: the buyers' check-in
   * entry, reached from a purchasing system with a one-time ticket; `public`:
   * the public site.
   */
  area: 'public' | 'tabs' | 'entry';
};

const stringProp = (
  obj: ts.ObjectLiteralExpression,
  name: string,
): string | undefined => {
  for (const p of obj.properties) {
    if (
      ts.isPropertyAssignment(p) &&
      ts.isIdentifier(p.name) &&
      p.name.text === name &&
      ts.isStringLiteral(p.initializer)
    )
      return p.initializer.text;
  }
  return undefined;
};

const hasIndex = (obj: ts.ObjectLiteralExpression) =>
  obj.properties.some(
    (p) =>
      ts.isPropertyAssignment(p) &&
      ts.isIdentifier(p.name) &&
      p.name.text === 'index' &&
      p.initializer.kind === ts.SyntaxKind.TrueKeyword,
  );

const childrenOf = (obj: ts.ObjectLiteralExpression) => {
  for (const p of obj.properties) {
    if (
      ts.isPropertyAssignment(p) &&
      ts.isIdentifier(p.name) &&
      p.name.text === 'children' &&
      ts.isArrayLiteralExpression(p.initializer)
    )
      return p.initializer.elements.filter(ts.isObjectLiteralExpression);
  }
  return [];
};

/**
 * Every page route of the web's route table (src/app/route-table.ts, the
 * children of the root layout in router.tsx), read from its source:
 * importing it would need a browser and Vite's aliases. A layout whose
 * children include an index route counts as a page (it renders that child).
 */
export const discoverRoutes = (
  tableFile = path.join(webRoot, 'src/app/route-table.ts'),
): AppRoute[] => {
  const source = ts.createSourceFile(
    tableFile,
    readFileSync(tableFile, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TS,
  );
  let top: ts.ObjectLiteralExpression[] = [];
  const find = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'pageRoutes' &&
      node.initializer &&
      ts.isArrayLiteralExpression(node.initializer)
    )
      top = node.initializer.elements.filter(ts.isObjectLiteralExpression);
    else ts.forEachChild(node, find);
  };
  find(source);
  if (top.length === 0) throw new Error(`no pageRoutes array in ${tableFile}`);

  const found: string[] = [];
  const walk = (objs: ts.ObjectLiteralExpression[], parent: string) => {
    for (const obj of objs) {
      const own = stringProp(obj, 'path');
      const full = hasIndex(obj)
        ? parent
        : own === undefined
          ? parent
          : own.startsWith('/')
            ? own.replace(/^\/+/, '')
            : [parent, own].filter(Boolean).join('/');
      const kids = childrenOf(obj);
      // A layout whose children include an index route renders through that child.
      if (hasIndex(obj) || (own !== undefined && kids.length === 0))
        found.push(full);
      walk(kids, full);
    }
  };
  walk(top, '');
  return [...new Set(found)].map((pattern) => ({
    pattern,
    area: MEMBER_ROOTS.includes(pattern.split('/')[0]!)
      ? 'tabs'
      : pattern.startsWith('checkin/')
        ? 'entry'
        : 'public',
  }));
};

/** The member area: the tabs, and the pages beside them that mails link to (payment, 領収書, 売上明細). */
const MEMBER_ROOTS = ['tabs', 'payment', 'receipt', 'sales'];

/**
 * Values for route parameters that no page links to: the buyer check-in entry
 * (an unknown ticket shows its error state) and the not-found page.
 */
const FIXED_SAMPLES: Record<string, string> = {
  'checkin/:ticket': 'checkin/unknown-ticket',
  '*': 'no/such/page',
};

/** `info/:id` → a regular expression matching `info/12`. */
const patternRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('/')
      .map((seg) =>
        seg.startsWith(':')
          ? '[^/?#]+'
          : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')}$`,
  );

/**
 * A concrete path for a route pattern: the pattern itself when it has no
 * parameter, else the first link seen on a page that matches it, else a
 * fixed sample. Undefined when nothing fits.
 */
export const concretePath = (
  pattern: string,
  seenLinks: Iterable<string>,
): string | undefined => {
  if (!pattern.includes(':') && pattern !== '*') return pattern;
  const fixed = FIXED_SAMPLES[pattern];
  if (fixed) return fixed;
  const re = patternRegExp(pattern);
  for (const link of seenLinks) if (re.test(link)) return link;
  return undefined;
};

/** The in-app links of the current page (`#/info/3` → `info/3`). */
export const collectLinks = async (page: Page): Promise<string[]> =>
  page.$$eval('a[href^="#/"]', (as) =>
    as.map((a) => (a.getAttribute('href') ?? '').replace(/^#\/?/, '')),
  );

/** Hash URL of an app path on the server. */
export const routeUrl = (baseUrl: string, appPath: string) =>
  appPath === '' ? `${baseUrl}/` : `${baseUrl}/#/${appPath}`;

const inFlight = new WeakMap<Page, { count: number; last: number }>();

/** Counts the page's requests in flight (a WebSocket is not counted). */
export const trackRequests = (page: Page) => {
  const state = { count: 0, last: Date.now() };
  inFlight.set(page, state);
  const done = () => {
    state.count = Math.max(0, state.count - 1);
    state.last = Date.now();
  };
  page.on('request', () => {
    state.count++;
    state.last = Date.now();
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
};

/**
 * Waits until no request has been in flight for `quietMs`. Playwright's
 * `networkidle` only covers the document's first load, not what a hash
 * navigation fetches.
 */
export const networkQuiet = async (page: Page, quietMs = 300) => {
  const state = inFlight.get(page);
  if (!state) {
    await page.waitForLoadState('networkidle');
    return;
  }
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (state.count === 0 && Date.now() - state.last >= quietMs) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${state.count} requests still in flight after 15 s`);
};

/** The app path the page shows now (`#/info/3` → `info/3`). */
export const currentPath = (page: Page): Promise<string> =>
  page.evaluate(() => window.location.hash.replace(/^#\/?/, ''));

/**
 * Opens an app path in the page (without reloading when the app is already
 * loaded) and waits until the new page has rendered its heading, its API
 * calls have answered and the global spinner is gone. Returns the path shown
 * in the end, which differs from `appPath` when the route redirects.
 */
export const openRoute = async (
  page: Page,
  baseUrl: string,
  appPath: string,
): Promise<string> => {
  if ((await currentPath(page)) !== appPath || page.url() === 'about:blank') {
    // Hash navigation keeps the document: mark the old heading so it cannot pass for the new one.
    await page.$$eval('main h1', (hs) =>
      hs.forEach((h) => h.setAttribute('data-audit-stale', '')),
    );
    await page.goto(routeUrl(baseUrl, appPath));
  }
  try {
    await page.locator('main h1:not([data-audit-stale])').first().waitFor({
      state: 'attached',
      timeout: 10_000,
    });
  } catch (e) {
    throw new Error(
      `#/${appPath} (now ${await currentPath(page)}) shows no new h1 in main`,
      { cause: e },
    );
  }
  await networkQuiet(page);
  await page
    .locator('.global-spinner')
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => undefined);
  return currentPath(page);
};

export type AxeFinding = {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
};

/**
 * Runs axe on the page; returns the serious and critical findings and the
 * count of lesser ones. axe-core's source is injected once per document
 * (hash navigation keeps it) and run in the page directly: @axe-core/playwright
 * re-injects on every call and finishes each run in an extra blank page,
 * about five times slower, and this app has no frames for it to visit.
 */
export const axeCheck = async (
  page: Page,
): Promise<{ serious: AxeFinding[]; minor: number }> => {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    // Only the violations are read: skipping the details of passes is much faster.
    const result = await engine.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'minor',
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  const serious = violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  const minor = violations
    .filter((v) => !serious.includes(v))
    .reduce((n, v) => n + v.nodes.length, 0);
  return { serious, minor };
};

/** Fails on any serious or critical axe finding on what the page shows now. */
export const assertNoSeriousAxe = async (page: Page, where: string) => {
  const { serious } = await axeCheck(page);
  assert.deepEqual(serious, [], `${where}: ${JSON.stringify(serious)}`);
};

export type RouteVisit = {
  /** The router's pattern, e.g. `info/:id`. */
  route: string;
  /** The path opened for it, e.g. `info/3`. */
  path: string;
  serious: AxeFinding[];
  minor: number;
};

/**
 * Opens each route in the loaded app and runs axe. A parameter route is opened
 * once a visited page links to a match (so `info/:id` follows `info`).
 * Returns what was checked and the patterns never reached; a route that
 * redirects (e.g. `#/tabs` → `#/tabs/schedule`) is checked at its target.
 */
export const auditRoutes = async (
  page: Page,
  baseUrl: string,
  routes: AppRoute[],
): Promise<{ visits: RouteVisit[]; unreached: string[] }> => {
  const seen = new Set<string>();
  const visits: RouteVisit[] = [];
  let pending = routes.map((r) => r.pattern);
  let progress = true;
  while (pending.length > 0 && progress) {
    progress = false;
    const later: string[] = [];
    for (const pattern of pending) {
      const target = concretePath(pattern, seen);
      if (target === undefined) {
        later.push(pattern);
        continue;
      }
      progress = true;
      const shown = await openRoute(page, baseUrl, target);
      for (const link of await collectLinks(page)) seen.add(link);
      if (shown !== target) continue;
      const { serious, minor } = await axeCheck(page);
      visits.push({ route: pattern, path: target, serious, minor });
    }
    pending = later;
  }
  return { visits, unreached: pending };
};
