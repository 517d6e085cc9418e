/**
 * `npm run audit:web`: Lighthouse (mobile preset, simulated throttling) and
 * axe on every public route and on the member tabs of ama1 and pro1, against
 * the real server with the built web app and a fresh data folder.
 *
 * Prints one Markdown table and exits non-zero when accessibility, best
 * practices or (public routes) SEO is below 100, or axe finds anything
 * serious or critical. Performance (target ≥ 95 on public routes) is printed
 * as met / not met only: simulated throttling multiplies the CPU time seen on
 * this machine, so the score moves with the machine's load (printed too).
 *
 * Options: --runs N (Lighthouse runs per route, median reported; default 1),
 * --only TEXT (routes whose path contains TEXT), --public-only (no member
 * tabs), --axe-only (no Lighthouse), --json DIR (each Lighthouse result
 * saved there). WEB_DIST serves another build folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  auditRoutes,
  discoverRoutes,
  routeUrl,
  trackRequests,
  type AppRoute,
  type RouteVisit,
} from '../apps/web/e2e/a11y.ts';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  launchBrowser,
  openPage,
} from '../apps/web/e2e/browser.ts';
import { loginThroughForm } from '../apps/web/e2e/helpers.ts';
import { repoRoot, startServer } from '../apps/web/e2e/server.ts';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    only: { type: 'string' },
    'public-only': { type: 'boolean', default: false },
    'axe-only': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(opts.runs) || 1);
const PERF_TARGET = 95;
const MEMBERS = ['ama1@example.jp', 'pro1@example.jp'] as const;

/** `entry`: the buyers' check-in entry, audited logged out like the public site. */
type Who = 'public' | 'entry' | (typeof MEMBERS)[number];

type LighthouseFigures = {
  perf: number;
  a11y: number;
  bp: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  /** The LCP element's selector (last part), from the median run. */
  lcpElement: string;
  /** Audits below full marks in accessibility, best practices and SEO. */
  failing: string[];
};

type Row = {
  who: Who;
  visit: RouteVisit;
  lighthouse?: LighthouseFigures;
};

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Builds only what is missing or stale (scripts/build.mjs), as `npm test` does. */
const ensureBuilt = () => {
  const script = process.env.WEB_DIST
    ? // Another web build is served: only the API needs to be current.
      `import { spawnSync } from 'node:child_process';
       const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/contract', 'apps/api'], { stdio: 'inherit' });
       process.exit(r.status ?? 1);`
    : `const { buildAll } = await import('./scripts/build.mjs'); buildAll();`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('build failed');
  const dist = process.env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html')))
    throw new Error(`no web build in ${dist}`);
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const score = (lhr: Result, category: string) =>
  Math.round((lhr.categories[category]?.score ?? 0) * 100);

const failingAudits = (lhr: Result): string[] => {
  const out: string[] = [];
  for (const id of ['accessibility', 'best-practices', 'seo']) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
        out.push(`${id}/${ref.id}`);
    }
  }
  return out;
};

/**
 * One Lighthouse navigation, retried once on a runtime error: the first trace
 * of a fresh Chromium sometimes misses its navigation start (NO_NAVSTART).
 */
const runLighthouse = async (
  url: string,
  port: number,
  keepStorage: boolean,
): Promise<Result> => {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    // Member pages need the stored login; the cache is cleared by hand instead.
    disableStorageReset: keepStorage,
  };
  let last = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await lighthouse(url, flags);
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError) return lhr;
    last = lhr?.runtimeError?.code ?? 'no result';
  }
  throw new Error(`Lighthouse failed on ${url}: ${last}`);
};

/** The LCP element, e.g. `p.hero__lead`, from the largest-contentful-paint-element audit. */
const lcpElement = (lhr: Result): string => {
  type NodeItem = { node?: { selector?: string } };
  type Table = { items?: NodeItem[] };
  const details = lhr.audits['largest-contentful-paint-element']?.details as
    { items?: Table[] } | undefined;
  const selector = details?.items?.[0]?.items?.[0]?.node?.selector ?? '';
  return selector.split(' > ').pop() ?? '';
};

const summarise = (lhrs: Result[]): LighthouseFigures => ({
  perf: median(lhrs.map((l) => score(l, 'performance'))),
  // The worst run counts for the scores that must be 100.
  a11y: Math.min(...lhrs.map((l) => score(l, 'accessibility'))),
  bp: Math.min(...lhrs.map((l) => score(l, 'best-practices'))),
  seo: Math.min(...lhrs.map((l) => score(l, 'seo'))),
  lcpMs: median(
    lhrs.map((l) => l.audits['largest-contentful-paint']?.numericValue ?? 0),
  ),
  tbtMs: median(
    lhrs.map((l) => l.audits['total-blocking-time']?.numericValue ?? 0),
  ),
  lcpElement: lcpElement(
    [...lhrs].sort((a, b) => score(a, 'performance') - score(b, 'performance'))[
      Math.floor(lhrs.length / 2)
    ]!,
  ),
  failing: [...new Set(lhrs.flatMap(failingAudits))],
});

/** Writes each Lighthouse result as `<dir>/<who>-<path>-<run>.json` (--json DIR), for its details. */
const saveReports = (
  dir: string,
  who: Who,
  appPath: string,
  lhrs: Result[],
) => {
  mkdirSync(dir, { recursive: true });
  const name = `${who}-${appPath || 'landing'}`.replace(/[^\w.@-]+/g, '_');
  lhrs.forEach((lhr, i) =>
    writeFileSync(path.join(dir, `${name}-${i + 1}.json`), JSON.stringify(lhr)),
  );
};

/** axe over the routes of one area, in one loaded app (logged in for members). */
const axePass = async (
  browser: Browser,
  baseUrl: string,
  who: Who,
  routes: AppRoute[],
): Promise<{ visits: RouteVisit[]; unreached: string[] }> => {
  const { page, context } = await openPage(browser, 412);
  try {
    trackRequests(page);
    if (who === 'public' || who === 'entry') await page.goto(`${baseUrl}/`);
    else await loginThroughForm(page, baseUrl, who);
    await page.locator('#splash').waitFor({ state: 'detached', timeout: 5000 });
    const { visits, unreached } = await auditRoutes(page, baseUrl, routes);
    return { visits, unreached };
  } finally {
    await context.close();
  }
};

/**
 * Logs `who` in inside the Lighthouse Chromium so its stored refresh token
 * restores the login on each audited load (Lighthouse keeps storage then).
 */
const loginInLighthouseChrome = async (
  port: number,
  baseUrl: string,
  who: (typeof MEMBERS)[number],
): Promise<{ helper: Page; close: () => Promise<void> }> => {
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const context = cdp.contexts()[0] ?? (await cdp.newContext());
  const helper = await context.newPage();
  const session = await context.newCDPSession(helper);
  // Start from no login, whoever was logged in before.
  await session.send('Storage.clearDataForOrigin', {
    origin: baseUrl,
    storageTypes: 'all',
  });
  await session.detach();
  await loginThroughForm(helper, baseUrl, who);
  // Park the helper away from the app so it does not hold the chat socket open.
  await helper.goto('about:blank');
  return {
    helper,
    close: async () => {
      await helper.close();
      // Disconnects; the Chromium itself belongs to chrome-launcher.
      await cdp.close();
    },
  };
};

/** Empties the HTTP cache and the service worker so each member load is a first load. */
const clearCaches = async (helper: Page, origin: string) => {
  const session = await helper.context().newCDPSession(helper);
  await session.send('Network.clearBrowserCache');
  await session.send('Storage.clearDataForOrigin', {
    origin,
    storageTypes: 'service_workers,cache_storage',
  });
  await session.detach();
};

const fmtMs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The scores that must be 100. SEO only counts for the public site; the
 * check-in entry is only checked for accessibility, since an unknown ticket is
 * refused with a 400 that Chrome logs (best practices: errors in console).
 */
const gated = (who: Who): { bp: boolean; seo: boolean } => ({
  bp: who !== 'entry',
  seo: who === 'public',
});

const label = (who: Who) =>
  who === 'public'
    ? 'visitor'
    : who === 'entry'
      ? 'check-in'
      : who.replace('@example.jp', '');

const printTable = (rows: Row[]) => {
  const lines = [
    '| route | who | perf | a11y | BP | SEO | LCP | TBT | LCP element | axe serious/critical |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { who, visit, lighthouse: lh } of rows) {
    const g = gated(who);
    const cells = lh
      ? [
          who === 'public'
            ? `${lh.perf} (${lh.perf >= PERF_TARGET ? 'met' : 'not met'})`
            : String(lh.perf),
          String(lh.a11y),
          g.bp ? String(lh.bp) : `(${lh.bp})`,
          g.seo ? String(lh.seo) : `(${lh.seo})`,
          fmtMs(lh.lcpMs),
          `${Math.round(lh.tbtMs)} ms`,
          `\`${lh.lcpElement}\``,
        ]
      : Array<string>(7).fill('–');
    lines.push(
      `| #/${visit.path} | ${label(who)} | ${cells.join(' | ')} | ${visit.serious.length} |`,
    );
  }
  console.log(lines.join('\n'));
};

const main = async () => {
  ensureBuilt();
  const only = opts.only;
  const all = discoverRoutes();
  if (!all.some((r) => r.area === 'public'))
    throw new Error('no public route found in the route table');
  const routes = all.filter((r) => !only || r.pattern.includes(only));
  if (routes.length === 0) throw new Error(`no route matches --only ${only}`);
  console.log(
    `load average at start: ${loadAverage()} (${os.availableParallelism()} cores)`,
  );
  const server = await startServer();
  const rows: Row[] = [];
  /** Parameter routes no visited page linked to, per visitor. */
  const unreachedBy: { who: Who; pattern: string }[] = [];
  try {
    const browser = await launchBrowser();
    try {
      const areas: [Who, AppRoute[]][] = [
        ['public', routes.filter((r) => r.area === 'public')],
        ['entry', routes.filter((r) => r.area === 'entry')],
      ];
      if (!opts['public-only'])
        for (const m of MEMBERS)
          areas.push([m, routes.filter((r) => r.area === 'tabs')]);
      for (const [who, list] of areas) {
        if (list.length === 0) continue;
        const { visits, unreached } = await axePass(
          browser,
          server.baseUrl,
          who,
          list,
        );
        for (const visit of visits) rows.push({ who, visit });
        for (const pattern of unreached) unreachedBy.push({ who, pattern });
      }
    } finally {
      await browser.close();
    }

    if (!opts['axe-only']) {
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROME_PATH ?? CHROMIUM_PATH,
        chromeFlags: [...CHROMIUM_ARGS],
        logLevel: 'silent',
      });
      try {
        for (const who of ['public', 'entry', ...MEMBERS] as Who[]) {
          const mine = rows.filter((r) => r.who === who);
          if (mine.length === 0) continue;
          const session =
            who === 'public' || who === 'entry'
              ? null
              : await loginInLighthouseChrome(chrome.port, server.baseUrl, who);
          try {
            for (const row of mine) {
              const lhrs: Result[] = [];
              for (let i = 0; i < RUNS; i++) {
                if (session) await clearCaches(session.helper, server.baseUrl);
                lhrs.push(
                  await runLighthouse(
                    routeUrl(server.baseUrl, row.visit.path),
                    chrome.port,
                    session !== null,
                  ),
                );
              }
              row.lighthouse = summarise(lhrs);
              if (opts.json) saveReports(opts.json, who, row.visit.path, lhrs);
              process.stderr.write('.');
            }
          } finally {
            await session?.close();
          }
        }
        process.stderr.write('\n');
      } finally {
        chrome.kill();
      }
    }
  } finally {
    await server.stop();
  }

  console.log(
    `\nLighthouse ${opts['axe-only'] ? 'skipped' : `mobile, simulated throttling, ${RUNS} run(s) per route (median perf/LCP/TBT, worst a11y/BP/SEO)`}; axe-core on every route. Scores in brackets are not targets (SEO of member tabs; BP and SEO of the check-in entry).\n`,
  );
  printTable(rows);
  console.log(`\nload average at end: ${loadAverage()}`);

  const problems: string[] = [];
  // A member route counts as reached when either member reached it (pro1 has no
  // pro profile to open, for one).
  for (const { who, pattern } of unreachedBy) {
    const member = who !== 'public' && who !== 'entry';
    if (member && rows.some((r) => r.visit.route === pattern)) continue;
    problems.push(
      `#/${pattern} (${who}): no visited page links to it, not audited`,
    );
  }
  for (const { who, visit, lighthouse: lh } of rows) {
    const where = `#/${visit.path} (${who})`;
    for (const f of visit.serious)
      problems.push(
        `${where}: axe ${f.impact} ${f.id} at ${f.nodes.join(', ')}`,
      );
    if (!lh) continue;
    const g = gated(who);
    const below = [
      lh.a11y < 100 && `a11y ${lh.a11y}`,
      g.bp && lh.bp < 100 && `BP ${lh.bp}`,
      g.seo && lh.seo < 100 && `SEO ${lh.seo}`,
    ].filter(Boolean);
    if (below.length > 0)
      problems.push(`${where}: ${below.join(', ')} (${lh.failing.join(', ')})`);
  }
  const perfMissed = rows.filter(
    (r) =>
      r.who === 'public' && r.lighthouse && r.lighthouse.perf < PERF_TARGET,
  );
  if (!opts['axe-only'])
    console.log(
      `performance ≥ ${PERF_TARGET} on public routes: ${perfMissed.length === 0 ? 'met' : `not met on ${perfMissed.map((r) => `#/${r.visit.path}`).join(', ')}`}`,
    );
  if (problems.length > 0) {
    console.log(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else console.log('a11y / best practices / SEO / axe: all met');
};

await main();
