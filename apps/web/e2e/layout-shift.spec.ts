/**
 * Member pages fill in after their data answers; nothing already in view may
 * move when it does (cumulative layout shift, a Lighthouse metric, target ≤
 * 0.05). Measured on a phone with every data call held back, so the page
 * paints empty first, as on a slow network.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loginThroughForm } from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

const CLS_BUDGET = 0.05;

/** The layout shifts since the page loaded, not caused by input, with what moved. */
const shifts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ total: number; moved: string[] }>((resolve) => {
        type Shift = PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
          sources: { node: Node | null }[];
        };
        new PerformanceObserver((list) => {
          const entries = (list.getEntries() as Shift[]).filter(
            (e) => !e.hadRecentInput,
          );
          resolve({
            total: entries.reduce((n, e) => n + e.value, 0),
            moved: entries.flatMap((e) =>
              e.sources.map((s) =>
                s.node instanceof Element
                  ? `${s.node.tagName.toLowerCase()}.${s.node.className}`
                  : String(s.node?.nodeName),
              ),
            ),
          });
        }).observe({ type: 'layout-shift', buffered: true });
        // No shift at all: the observer reports nothing.
        setTimeout(() => resolve({ total: 0, moved: [] }), 500);
      }),
  );

/**
 * `url` opened with every data call answering 1.5 s late; the session's own
 * calls too with `sessionLate` (a stored login confirmed slowly, as on a busy
 * server: the page shows a spinner in its place meanwhile).
 */
async function openLate(page: Page, url: string, { sessionLate = false } = {}) {
  await page.route('**/api/**', async (route) => {
    if (sessionLate || !route.request().url().includes('/api/auth/'))
      await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.goto('about:blank');
  await page.goto(url);
}

async function assertStill(page: Page) {
  await page.waitForTimeout(500);
  const { total, moved } = await shifts(page);
  assert.ok(
    total <= CLS_BUDGET,
    `layout shift ${total.toFixed(3)} > ${CLS_BUDGET}: ${moved.join(', ')}`,
  );
}

describe('member pages filling in', () => {
  for (const [who, tab, ready] of [
    ['ama1@example.jp', 'schedule', '予約中のレッスン'],
    ['ama1@example.jp', 'competitions', '大会'],
    ['ama1@example.jp', 'likes', 'いいねしたプロ'],
    ['pro1@example.jp', 'likes', 'いいねしてくれた会員'],
    ['pro1@example.jp', 'chat', 'チャット'],
  ] as const)
    it(`moves nothing in view on #/tabs/${tab} (${who}) when its data arrives late`, async () => {
      await suite.withPage(390, async ({ page }) => {
        await loginThroughForm(page, suite.server.baseUrl, who);
        await openLate(page, `${suite.server.baseUrl}/#/tabs/${tab}`);
        await page.getByRole('heading', { name: ready }).first().waitFor();
        await page
          .locator('.global-spinner')
          .waitFor({ state: 'detached', timeout: 10_000 });
        await assertStill(page);
      });
    });

  it('moves nothing in view on #/tabs/schedule when the stored login is also confirmed late', async () => {
    await suite.withPage(390, async ({ page }) => {
      await loginThroughForm(page, suite.server.baseUrl, 'ama1@example.jp');
      // The prerendered tab shows its spinner before the app runs: the check
      // below counts from the app's own call confirming the login.
      const confirming = page.waitForRequest(
        /\/api\/auth\/(handshake|refresh)$/,
      );
      await openLate(page, `${suite.server.baseUrl}/#/tabs/schedule`, {
        sessionLate: true,
      });
      await confirming;
      // The page's own spinner stands in meanwhile, without the app-wide one
      // over it (which shows 0.25 s into any call).
      await page
        .getByText('ログイン状態を確認しています')
        .waitFor({ state: 'attached' });
      await page.waitForTimeout(600);
      // The app counts the call (its spinner is in the page), and hides it.
      await page.getByTestId('global-spinner').waitFor({ state: 'attached' });
      assert.equal(
        await page.getByTestId('global-spinner').isVisible(),
        false,
        'a second spinner over the page’s own',
      );
      await page
        .getByRole('heading', { name: '予約中のレッスン' })
        .first()
        .waitFor({ timeout: 10_000 });
      await page
        .locator('.global-spinner')
        .waitFor({ state: 'detached', timeout: 10_000 });
      await assertStill(page);
    });
  });

  it('moves nothing in view on #/checkin/:ticket when the ticket check answers late', async () => {
    await suite.withPage(
      390,
      async ({ page }) => {
        // Well-formed but unknown: a spinner, then the invalid-link notice.
        await openLate(
          page,
          `${suite.server.baseUrl}/#/checkin/unknown-ticket-0123456789`,
        );
        await page.getByText('このリンクは無効か').waitFor({ timeout: 10_000 });
        await assertStill(page);
      },
      // The unknown ticket's refusal, provoked on purpose.
      {
        allow: (e) =>
          e.includes('400 (Bad Request)') &&
          e.includes('/api/punchout/checkin'),
      },
    );
  });
});
