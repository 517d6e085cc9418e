/**
 * axe on every public page and every member tab (as ama1 and as pro1),
 * with the routes read from the web's router so a new page is checked
 * without editing this file. No serious or critical finding is allowed.
 * Pages are opened by hash navigation inside one loaded app, so the whole
 * run costs seconds, not one page load per route.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  auditRoutes,
  discoverRoutes,
  trackRequests,
  type RouteVisit,
} from './a11y.ts';
import { loginThroughForm, waitForSplash } from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

const describeFindings = (visits: RouteVisit[]) =>
  visits
    .flatMap((v) =>
      v.serious.map(
        (f) =>
          `#/${v.path}: ${f.impact} ${f.id} (${f.help}) at ${f.nodes.join(', ')}`,
      ),
    )
    .join('\n');

const routes = discoverRoutes();

describe('accessibility (axe)', () => {
  it('finds the public and member routes in the router', () => {
    const patterns = routes.map((r) => r.pattern);
    for (const expected of ['', 'about', 'info/:id', 'auth', 'tabs/chat'])
      assert.ok(patterns.includes(expected), `router has ${expected}`);
  });

  it('public pages and the check-in entry have no serious or critical findings', async () => {
    await suite.withPage(
      375,
      async ({ page }) => {
        trackRequests(page);
        await page.goto(`${suite.server.baseUrl}/`);
        // The splash covers the page for 1500 ms; axe would judge colours under it.
        await waitForSplash(page);
        const { visits, unreached } = await auditRoutes(
          page,
          suite.server.baseUrl,
          // The check-in entry shows its refusal of an unknown ticket.
          routes.filter((r) => r.area !== 'tabs'),
        );
        assert.deepEqual(unreached, [], 'every public route was opened');
        assert.equal(describeFindings(visits), '');
      },
      // An unknown check-in ticket is refused (400): the page shows it, the console logs it.
      { allow: (e) => e.includes('/api/punchout/checkin') },
    );
  });

  for (const mail of ['ama1@example.jp', 'pro1@example.jp']) {
    it(`member tabs of ${mail} have no serious or critical findings`, async () => {
      await suite.withPage(375, async ({ page }) => {
        trackRequests(page);
        await loginThroughForm(page, suite.server.baseUrl, mail);
        await waitForSplash(page);
        const { visits } = await auditRoutes(
          page,
          suite.server.baseUrl,
          routes.filter((r) => r.area === 'tabs'),
        );
        // Every tab of the tab bar, at least, was checked.
        for (const tab of [
          'schedule',
          'likes',
          'chat',
          'competitions',
          'profile',
        ])
          assert.ok(
            visits.some((v) => v.path === `tabs/${tab}`),
            `checked tabs/${tab}`,
          );
        assert.equal(describeFindings(visits), '');
      });
    });
  }
});
