/**
 * Every page's first-load JS+CSS against its budget (page-weight.ts), as the
 * landing page's is checked in landing.spec.ts: public pages as a visitor,
 * member tabs as an amateur and a pro.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pageRoutes } from '../src/app/route-table.ts';
import { loginThroughForm } from './helpers.ts';
import { measureRoutes, ROUTE_BUDGETS_KB } from './page-weight.ts';
import { repoRoot } from './server.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

describe('first-load JS+CSS of every page', () => {
  it('has a budget for every public page and member tab', () => {
    const patterns = pageRoutes.flatMap((r) =>
      r.path === 'tabs'
        ? (r.children ?? []).flatMap((c) => (c.path ? [`tabs/${c.path}`] : []))
        : r.path
          ? [r.path]
          : [],
    );
    const budgeted = new Set(Object.keys(ROUTE_BUDGETS_KB));
    const tabs = [
      'schedule',
      'likes',
      'chat',
      'chat/:partitionKey',
      'competitions',
      'profile',
    ];
    // '*' is the not-found page; member pages outside the tabs (payment,
    // receipt, sales) are pathless-layout children, not listed here.
    for (const p of patterns.filter((p) => !p.startsWith('tabs/') && p !== '*'))
      assert.ok(budgeted.has(p), `no budget for #/${p}`);
    for (const tab of tabs) {
      assert.ok(patterns.includes(`tabs/${tab}`), `no route tabs/${tab}`);
      assert.ok(budgeted.has(`tabs/${tab}`), `no budget for #/tabs/${tab}`);
    }
  });

  it('ships React Router’s production build, not the development one its export map names (vite.config.ts)', () => {
    const assets = path.join(
      process.env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
      'assets',
    );
    const code = readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(path.join(assets, f), 'utf8'));
    // The router is in the build at all…
    assert.ok(code.some((c) => c.includes('useNavigate() may be used only')));
    // …and not its development-only error page and warnings.
    for (const devOnly of ['Hey developer', 'You rendered descendant <Routes>'])
      assert.ok(!code.some((c) => c.includes(devOnly)), devOnly);
  });

  it('stays within each page’s budget, as a visitor and as ama1 and pro1', async (t) => {
    const rows = await measureRoutes(
      suite.browser,
      suite.server.baseUrl,
      ['ama1@example.jp', 'pro1@example.jp'],
      (page, baseUrl, mail) => loginThroughForm(page, baseUrl, mail),
    );
    for (const r of rows)
      t.diagnostic(
        `#/${r.route} (${r.who}): ${r.jsCssKb} KB of ${r.budgetKb} KB`,
      );
    const over = rows.filter((r) => r.jsCssKb > r.budgetKb);
    assert.deepEqual(
      over.map(
        (r) =>
          `#/${r.route} (${r.who}): ${r.jsCssKb} KB > ${r.budgetKb} KB: ${JSON.stringify(r.files)}`,
      ),
      [],
    );
    // No page creates an Intl object while it loads (countIntlUses: each
    // page's first one costs tens of ms of main thread in ICU's data).
    assert.deepEqual(
      rows.flatMap((r) =>
        r.intlUses.map((use) => `#/${r.route} (${r.who}): ${use}`),
      ),
      [],
    );
    // Each page did load its code: a page that fetched nothing would pass any budget.
    for (const r of rows)
      assert.ok(
        r.files.some((f) => f.url.endsWith('.js')),
        `#/${r.route} (${r.who})`,
      );
  });
});
