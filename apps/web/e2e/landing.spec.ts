/**
 * The landing page's first load (budget: JS+CSS ≤ 100 KB on the wire):
 * a first-time visitor gets the prerendered page without the app, which
 * arrives on intent and takes over the same DOM; links work from the first
 * click; a stored login still gets the member app at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { LANDING_BUDGET_KB, measureLanding } from './page-weight.ts';
import { heading1, loginThroughForm } from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

/** In the page: whether React has taken over (it marks its root container). */
const appRunningIn = () => {
  const root = document.getElementById('root');
  return (
    root !== null && Object.keys(root).some((k) => k.startsWith('__react'))
  );
};
const appRunning = (page: Page) => page.evaluate(appRunningIn);

/** Holds the app's React chunk back; returns what lets it through. */
const holdReact = async (page: Page) => {
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  await page.route('**/assets/react-*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
};

describe('landing page first load', () => {
  it(`fetches at most ${LANDING_BUDGET_KB} KB of JS+CSS for a first-time visitor`, async () => {
    const weight = await measureLanding(suite.browser, suite.server.baseUrl);
    assert.ok(
      weight.jsCssKb <= LANDING_BUDGET_KB,
      `${weight.jsCssKb} KB: ${JSON.stringify(weight.files)}`,
    );
    // The prerendered page and its CSS did arrive.
    assert.ok(weight.files.some((f) => f.url.endsWith('.css')));
    // Nor does its first load create an Intl object (page-weight.ts, countIntlUses).
    assert.deepEqual(weight.intlUses, []);
  });

  it('reaches the right page from the first click on a landing link', async () => {
    await suite.withPage(375, async ({ page }) => {
      await page.goto(`${suite.server.baseUrl}/`);
      await page.locator('#splash').waitFor({ state: 'detached' });
      assert.equal(await appRunning(page), false, 'no app before intent');
      await page.getByRole('link', { name: 'プロ会員メニューを見る' }).click();
      await page
        .getByRole('heading', { level: 1, name: 'プロ会員メニュー' })
        .waitFor();
      assert.equal(new URL(page.url()).hash, '#/promenu');
      // As after any navigation in the app: the new page's content has the focus.
      await page.waitForFunction(() => document.activeElement?.id === 'main');
      await page.goBack();
      await page
        .getByRole('heading', { level: 1, name: /プロと回る/ })
        .waitFor();
      await page.getByRole('link', { name: 'ログイン' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'ログイン' }).waitFor();
    });
  });

  it('takes over the page in place on keyboard focus, keeping focus and scroll', async () => {
    await suite.withPage(1280, async ({ page }) => {
      await page.goto(`${suite.server.baseUrl}/`);
      await page.locator('#splash').waitFor({ state: 'detached' });
      const hero = await page.locator('#hero-title').elementHandle();
      await page.keyboard.press('Tab');
      await page.waitForFunction(appRunningIn);
      // Hydrated: the same nodes, the news filled in once scrolled to.
      assert.ok(await hero!.evaluate((h) => h.isConnected));
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        '本文へスキップ',
      );
      await page
        .getByRole('heading', { name: '最新情報' })
        .scrollIntoViewIfNeeded();
      const y = await page.evaluate(() => window.scrollY);
      await page
        .getByText('最新情報を読み込み中')
        .waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => window.scrollY), y);
    });
  });

  it('shows the news once its section nears the viewport', async () => {
    await suite.withPage(375, async ({ page }) => {
      await page.goto(`${suite.server.baseUrl}/`);
      await page.locator('#splash').waitFor({ state: 'detached' });
      await page.keyboard.press('End');
      const news = page.locator('section', {
        has: page.getByRole('heading', { name: '最新情報' }),
      });
      await news.locator('.news-list, p.muted').first().waitFor();
      assert.ok(
        await page.evaluate(() => window.scrollY > 0),
        'still scrolled',
      );
    });
  });

  it('gives a visitor with a stored login the member app at once', async () => {
    await suite.withPage(375, async ({ page }) => {
      await loginThroughForm(page, suite.server.baseUrl, 'ama1@example.jp');
      // A fresh load of the landing page: the app starts without any intent.
      await page.goto(`${suite.server.baseUrl}/`);
      await page.waitForFunction(appRunningIn);
      await page.getByRole('link', { name: 'マイページ' }).waitFor();
    });
  });

  it('never shows a stored login the visitor’s ログイン link before the app has rendered its マイページ', async () => {
    await suite.withPage(375, async ({ page }) => {
      await loginThroughForm(page, suite.server.baseUrl, 'ama1@example.jp');
      // The landing page, and a member page without a prerendered tab.
      for (const hash of ['', '#/tabs/admin']) {
        await page.goto('about:blank');
        const release = await holdReact(page);
        await page.goto(`${suite.server.baseUrl}/${hash}`);
        const account = page.locator('.site-header__account');
        await account.waitFor({ state: 'attached' });
        // The prerendered header's link is there, a visitor's, and hidden.
        assert.equal(await account.textContent(), 'ログイン');
        assert.equal(await account.isVisible(), false, hash);
        release();
        await page.waitForFunction(appRunningIn);
        await page.getByRole('link', { name: 'マイページ' }).waitFor();
        await page.unroute('**/assets/react-*.js');
      }
    });
  });

  it('shows the header’s link once the app has hydrated the page for a visitor whom deep-link.js took for a member', async () => {
    await suite.withPage(375, async ({ page }) => {
      // A check-in record but no login: marked as a member before the app,
      // anonymous to the app, which hydrates the prerendered header as it is.
      await page.goto(`${suite.server.baseUrl}/#/`);
      await page.evaluate(() => localStorage.setItem('checkin', 'x'));
      await page.reload();
      await page.waitForFunction(appRunningIn);
      await page
        .getByRole('banner')
        .getByRole('link', { name: 'ログイン' })
        .waitFor();
      assert.equal(
        await page.evaluate(() =>
          document.documentElement.classList.contains('member'),
        ),
        false,
      );
    });
  });

  it("paints another public page from its prerendered HTML before the app's code, which then hydrates it in place", async () => {
    await suite.withPage(375, async ({ page }) => {
      const release = await holdReact(page);
      await page.goto(`${suite.server.baseUrl}/#/qa`);
      await heading1(page, 'よくある質問').waitFor();
      assert.equal(await appRunning(page), false, 'painted before the app');
      assert.equal(await page.title(), 'よくある質問 | ProAm Connect');
      // Marked, to tell whether hydration kept this node or drew a new one.
      await page.evaluate(() => {
        (document.querySelector('h1') as HTMLElement).dataset.seen = '1';
      });
      // An in-page link used before the app runs: held, not taken by the
      // router for an address, and followed once the app runs.
      const target = page.getByRole('heading', { name: 'プロ会員について' });
      await page.getByRole('link', { name: 'プロ会員について' }).click();
      assert.equal(new URL(page.url()).hash, '#/qa');
      release();
      await page.waitForFunction(appRunningIn);
      await target.waitFor();
      await page.waitForFunction(() => {
        const h = [...document.querySelectorAll('h2')].find(
          (x) => x.textContent === 'プロ会員について',
        );
        return h !== undefined && h.getBoundingClientRect().top < 200;
      });
      assert.equal(new URL(page.url()).hash, '#/qa');
      // Kept (withPage: no hydration error logged), and the app runs it.
      assert.equal(await page.locator('h1[data-seen="1"]').count(), 1);
      await page.getByRole('link', { name: 'お問い合わせ' }).first().click();
      await heading1(page, 'お問い合わせ').waitFor();
    });
  });

  it("paints a returning member's tab before the app's code, which then hydrates it in place", async () => {
    const lead = 'アマチュアの方は予約中のラウンドレッスンの確認';
    for (const mail of ['pro1@example.jp', 'ama1@example.jp']) {
      await suite.withPage(375, async ({ page }) => {
        await loginThroughForm(page, suite.server.baseUrl, mail);
        await page.goto('about:blank');
        const release = await holdReact(page);
        await page.goto(`${suite.server.baseUrl}/#/tabs/schedule`);
        await heading1(page, 'スケジュール').waitFor();
        assert.equal(await appRunning(page), false, 'painted before the app');
        assert.equal(await page.title(), 'スケジュール | ProAm Connect');
        assert.match(
          (await page.locator('.title-block__description').textContent()) ?? '',
          new RegExp(lead),
        );
        // The member's header and tab bar, this tab current.
        await page
          .getByRole('banner')
          .getByRole('link', { name: 'マイページ' })
          .waitFor();
        assert.equal(
          await page
            .getByRole('navigation', { name: '会員メニュー' })
            .getByRole('link', { name: 'スケジュール' })
            .getAttribute('aria-current'),
          'page',
        );
        // Layout shifts from here on: the app taking over, then the page.
        await page.evaluate(() => {
          const w = window as unknown as { shift: number };
          w.shift = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries())
              w.shift += (e as PerformanceEntry & { value: number }).value;
          }).observe({ type: 'layout-shift' });
        });
        release();
        await page.waitForFunction(appRunningIn);
        // Hydrated (withPage: no hydration error logged), then the page
        // itself, once the login is confirmed: the tab's content replaces
        // the spinner, under the same title block.
        await page
          .getByRole('status', { name: 'ログイン状態を確認しています' })
          .waitFor({ state: 'detached' });
        await heading1(page, 'スケジュール').waitFor();
        assert.match(
          (await page.locator('.title-block__description').textContent()) ?? '',
          new RegExp(lead),
        );
        assert.ok(
          (await page.evaluate(
            () => (window as unknown as { shift: number }).shift,
          )) <= 0.05,
          'no layout shift from the tab to its page',
        );
        await page.unroute('**/assets/react-*.js');
      });
    }
  });

  it('keeps a prerendered form disabled until the app runs it', async () => {
    await suite.withPage(375, async ({ page }) => {
      const release = await holdReact(page);
      await page.goto(`${suite.server.baseUrl}/#/auth`);
      await heading1(page, 'ログイン').waitFor();
      const mail = page.getByLabel('メールアドレス');
      assert.equal(await appRunning(page), false, 'painted before the app');
      assert.equal(await mail.isDisabled(), true, 'nothing typed to be lost');
      release();
      await page.waitForFunction(appRunningIn);
      await mail.fill('ama1@example.jp');
      assert.equal(await mail.inputValue(), 'ama1@example.jp');
    });
  });

  it('preloads the start-up chunks from the head on an address without prerendered HTML, never on the landing page', async () => {
    await suite.withPage(375, async ({ page }) => {
      // Preloads asked for while the head was parsed, before the entry's
      // script tag (Vite's own preloads come later, at the end of the head).
      const preloaded = () =>
        page.evaluate(() => {
          const entry = document.querySelector('script[type="module"]')!;
          return [
            ...document.querySelectorAll<HTMLLinkElement>(
              'link[rel="modulepreload"]',
            ),
          ]
            .filter(
              (l) =>
                l.compareDocumentPosition(entry) &
                Node.DOCUMENT_POSITION_FOLLOWING,
            )
            .map((l) => new URL(l.href).pathname);
        });
      const named = (chunks: string[], name: string) =>
        chunks.some((c) => c.startsWith(`/assets/${name}-`));
      await page.goto(`${suite.server.baseUrl}/#/campaignDetails/1`);
      await page.waitForFunction(appRunningIn);
      const deep = await preloaded();
      for (const name of ['react', 'state', 'shell'])
        assert.ok(named(deep, name), `${name} in ${deep.join(' ')}`);
      await page.goto('about:blank');
      await page.goto(`${suite.server.baseUrl}/`);
      await page.locator('#splash').waitFor({ state: 'detached' });
      const landing = await preloaded();
      for (const name of ['react', 'state', 'shell'])
        assert.ok(!named(landing, name), `${name} in ${landing.join(' ')}`);
    });
  });
});
