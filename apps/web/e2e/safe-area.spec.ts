/**
 * A phone that draws the app edge to edge (index.html's viewport-fit=cover:
 * iOS, Android 15's WebView in the native app, an installed PWA) reports its
 * status bar, notch and home indicator as env(safe-area-inset-*). Chromium
 * sets those insets through its DevTools protocol, so the pages are checked
 * as such a phone shows them: nothing to read or tap under a system bar.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loginThroughForm } from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

type Insets = { top: number; bottom: number; left: number; right: number };

/** An iPhone in portrait: the status bar above, the home indicator below. */
const PORTRAIT: Insets = { top: 47, bottom: 34, left: 0, right: 0 };
/** The same phone turned: the notch on the left, the indicator below. */
const LANDSCAPE: Insets = { top: 0, bottom: 21, left: 47, right: 47 };

const setInsets = async (page: Page, insets: Insets) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets });
};

const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).first().boundingBox();
  assert.ok(found, `${selector} is shown`);
  return found;
};

/** The header's logo and menu sit below the status bar, its white reaching under it. */
async function assertHeaderClear(page: Page, insets: Insets) {
  const header = await box(page, '.site-header');
  assert.equal(header.y, 0, 'the header starts at the top of the screen');
  for (const part of ['.site-header__logo', '.site-header__toggle']) {
    const b = await box(page, part);
    assert.ok(b.y >= insets.top, `${part} at ${b.y}, under the status bar`);
  }
}

describe('the sticky header', () => {
  it('is one row on a 360 px phone, and every offset that clears it is as tall as it is, at every width', async () => {
    for (const width of [360, 390, 900, 1280])
      await suite.withPage(width, async ({ page }) => {
        await page.goto(`${suite.server.baseUrl}/#/qa`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        const header = await box(page, '.site-header');
        const logo = await box(page, '.site-header__logo');
        const menu = await box(page, '.site-header__actions');
        if (width < 768)
          assert.ok(
            Math.abs(logo.y - menu.y) < 12,
            `${width} px: the logo (y ${logo.y}) and the menu (y ${menu.y}) share a row`,
          );
        const offset = await page.evaluate(
          () =>
            parseFloat(
              getComputedStyle(document.documentElement).scrollPaddingTop,
            ) - 8,
        );
        assert.ok(
          header.height <= offset + 1,
          `${width} px: the header is ${header.height} px, the offsets ${offset} px`,
        );
      });
  });
});

describe('a phone drawn edge to edge (safe-area insets)', () => {
  it('keeps the header below the status bar and the tab bar above the home indicator, scrolled or not', async () => {
    await suite.withPage(390, async ({ page }) => {
      await setInsets(page, PORTRAIT);
      await page.goto(`${suite.server.baseUrl}/#/`);
      await assertHeaderClear(page, PORTRAIT);

      await loginThroughForm(page, suite.server.baseUrl, 'ama1@example.jp');
      await page
        .getByRole('heading', { name: '予約中のレッスン' })
        .first()
        .waitFor();
      await assertHeaderClear(page, PORTRAIT);
      const viewport = page.viewportSize()!;
      const tab = await box(page, '.tab-bar__link');
      assert.ok(
        tab.y + tab.height <= viewport.height - PORTRAIT.bottom,
        `the tabs end at ${tab.y + tab.height}, above the home indicator`,
      );
      const bar = await box(page, '.tab-bar');
      assert.equal(
        bar.y + bar.height,
        viewport.height,
        'the tab bar’s white reaches the bottom edge',
      );

      // The sticky header keeps its place, and an anchored heading is not
      // hidden under it.
      await page.mouse.wheel(0, 600);
      await page.waitForFunction(() => window.scrollY > 300);
      await assertHeaderClear(page, PORTRAIT);
      const padding = await page.evaluate(
        () => getComputedStyle(document.documentElement).scrollPaddingTop,
      );
      assert.equal(padding, `${64 + PORTRAIT.top + 8}px`);
    });
  });

  it('keeps the page’s text and the tabs clear of the notch in landscape', async () => {
    await suite.withPage(844, async ({ page }) => {
      await page.setViewportSize({ width: 844, height: 390 });
      await setInsets(page, LANDSCAPE);
      /** `selector`'s first and last boxes lie between the two side insets. */
      const assertBetweenInsets = async (selector: string) => {
        const all = page.locator(selector);
        const first = await all.first().boundingBox();
        const last = await all.last().boundingBox();
        assert.ok(first && last, `${selector} is shown`);
        assert.ok(
          first.x >= LANDSCAPE.left,
          `${selector} starts at x ${first.x}`,
        );
        assert.ok(
          last.x + last.width <= 844 - LANDSCAPE.right,
          `${selector} ends at x ${last.x + last.width}`,
        );
      };
      await page.goto(`${suite.server.baseUrl}/#/qa`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await assertBetweenInsets('.site-header__logo');
      await assertBetweenInsets('h1');

      await loginThroughForm(page, suite.server.baseUrl, 'ama1@example.jp');
      await page
        .getByRole('heading', { name: '予約中のレッスン' })
        .first()
        .waitFor();
      await assertBetweenInsets('.tab-bar__link');
      await assertBetweenInsets('h1');
    });
  });
});
