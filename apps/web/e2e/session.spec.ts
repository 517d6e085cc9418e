/**
 * A login survives a missing network or a busy server:
 * the stored refresh token stays, the offline notice says what is going on,
 * and the session comes back by itself once the server can be reached.
 * Only InvalidRefreshToken or a logout ends a login. Runs in its own process
 * with its own server (see e2e/server.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  heading1,
  serviceWorkerActive,
  shootBoth as shoot,
  submitLogin,
  waitForSplash,
} from './helpers.ts';
import { serverAndBrowser, type OpenedPage } from './suite.ts';

const suite = serverAndBrowser();

const OFFLINE = 'オフラインです。接続が戻ると自動で再接続します。';
const UNAVAILABLE =
  'サーバーに接続できません。しばらくすると自動で再接続します。';

/**
 * Console errors the test provokes on purpose: requests failing while the
 * network is cut, and the answers it fakes (401, 503).
 */
const provoked = (error: string) =>
  /ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|status of (401|503)/.test(error);

const storedRefreshToken = (page: Page) =>
  page.evaluate(() => localStorage.getItem('refresh_token'));

const memberTabs = (page: Page) =>
  page.getByRole('navigation', { name: '会員メニュー' });

/** Opens each member tab in turn and waits for its page (whose h1 reads as the tab). */
const visitTabs = async (page: Page, names: readonly string[]) => {
  for (const name of names) {
    await memberTabs(page).getByRole('link', { name }).click();
    await heading1(page, name).waitFor();
  }
};

const notice = (page: Page) =>
  page.locator('.offline-notice').getByRole('status');

/**
 * Runs `test` on a page `width` px wide after opening the app, waiting for its
 * service worker (the offline shell) and logging in as ama1; the errors the
 * test provokes on purpose are allowed.
 */
const asAma1 = (width: number, test: (opened: OpenedPage) => Promise<void>) =>
  suite.withPage(
    width,
    async (opened) => {
      const { page } = opened;
      await page.goto(`${suite.server.baseUrl}/#/auth`);
      await heading1(page, 'ログイン').waitFor();
      await serviceWorkerActive(page);
      await waitForSplash(page);
      await submitLogin(page, 'ama1@example.jp');
      await heading1(page, 'スケジュール').waitFor();
      await test(opened);
    },
    { allow: provoked },
  );

/** The notice at 375 and 1280 px: no sideways overflow, screenshots to look at. */
const shootBoth = (page: Page, name: string) =>
  shoot(page, name, { fullPage: false });

const alertDialogs = (page: Page) => page.getByRole('alertdialog').count();

describe('a login without a network', () => {
  it('survives a start-up without a network: the stored login waits and comes back online by itself', async () => {
    await asAma1(375, async ({ page, context }) => {
      const token = await storedRefreshToken(page);
      assert.ok(token);

      // Cut the network and start the app again: the service worker serves it.
      await context.setOffline(true);
      await page.reload();
      await notice(page).getByText(OFFLINE).waitFor({ timeout: 10_000 });
      await page
        .getByRole('heading', { level: 1, name: '接続を待っています' })
        .waitFor();
      assert.equal(await storedRefreshToken(page), token, 'login kept');
      assert.equal(
        await page.getByRole('heading', { level: 1, name: 'ログイン' }).count(),
        0,
        'no login form',
      );
      assert.equal(
        await page
          .getByRole('banner')
          .getByRole('link', { name: 'マイページ' })
          .count(),
        1,
        'the header still shows the member',
      );
      assert.equal(await alertDialogs(page), 0, 'no error dialog');
      await waitForSplash(page);
      await shootBoth(page, 'offline-start');

      // Back online: the handshake runs again and the tab's content loads.
      await context.setOffline(false);
      await memberTabs(page).waitFor({ timeout: 10_000 });
      await page
        .getByRole('heading', { level: 1, name: 'スケジュール' })
        .waitFor();
      await page.waitForFunction(
        (old) => {
          const now = localStorage.getItem('refresh_token');
          return now !== null && now !== old;
        },
        token,
        { timeout: 10_000 },
      );
      assert.equal(await notice(page).textContent(), '');
      await memberTabs(page)
        .getByRole('link', { name: 'プロフィール' })
        .click();
      await page.getByRole('heading', { name: /山本 拓也/ }).waitFor();
    });
  });

  it('survives the network going away during use and a refresh that cannot reach the server', async () => {
    await asAma1(1280, async ({ page, context }) => {
      const tabs = memberTabs(page);
      // Every tab once online, so their code is loaded.
      await visitTabs(page, ['いいね', '大会', 'チャット', 'スケジュール']);
      await page.waitForLoadState('networkidle');
      const token = await storedRefreshToken(page);

      await context.setOffline(true);
      await notice(page).getByText(OFFLINE).waitFor();
      await visitTabs(page, ['いいね', '大会', 'スケジュール', 'いいね']);
      assert.equal(await alertDialogs(page), 0, 'no error dialog per call');
      assert.equal(await storedRefreshToken(page), token, 'login kept');
      await shootBoth(page, 'offline-in-use');

      // Back online: still logged in, and the page loads what it could not.
      await context.setOffline(false);
      await notice(page).getByText(OFFLINE).waitFor({ state: 'detached' });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page
        .getByRole('button', { name: /^いいね（/ })
        .first()
        .waitFor({ timeout: 10_000 });
      assert.ok(await storedRefreshToken(page));

      // A renewal that cannot reach the server (a call finds the access token
      // refused, the refresh fails on the way) keeps the login too.
      await page.route('**/api/auth/refresh', (route) =>
        route.abort('internetdisconnected'),
      );
      await page.route(
        '**/api/competition/read',
        (route) =>
          route.fulfill({
            status: 401,
            contentType: 'application/json',
            body: JSON.stringify({
              status: 'NG',
              code: 'InvalidAccessToken',
              reqId: 'e2e',
              msg: '認証の有効期限が切れました。',
            }),
          }),
        { times: 1 },
      );
      await tabs.getByRole('link', { name: '大会' }).click();
      await page.getByRole('heading', { level: 1, name: '大会' }).waitFor();
      await notice(page).getByText(OFFLINE).waitFor();
      assert.equal(await alertDialogs(page), 0);
      const kept = await storedRefreshToken(page);
      assert.ok(kept, 'login kept after the failed refresh');
      await page.getByRole('button', { name: '今すぐ再接続' }).waitFor();
      await shootBoth(page, 'offline-retry');
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.unroute('**/api/auth/refresh');
      await page.getByRole('button', { name: '今すぐ再接続' }).click();
      await notice(page).getByText(OFFLINE).waitFor({ state: 'detached' });
      await page.waitForFunction((old) => {
        const now = localStorage.getItem('refresh_token');
        return now !== null && now !== old;
      }, kept);
      // The competitions the refused call could not load arrive after the renewal.
      await page.getByRole('main').locator('article').first().waitFor();
      await tabs.getByRole('link', { name: 'プロフィール' }).click();
      await page.getByRole('heading', { name: /山本 拓也/ }).waitFor();
    });
  });

  it('keeps the login when the server answers the start-up handshake with 503', async () => {
    await asAma1(375, async ({ page }) => {
      const token = await storedRefreshToken(page);
      await page.route(
        '**/api/auth/handshake',
        (route) =>
          route.fulfill({
            status: 503,
            contentType: 'application/json',
            headers: { 'retry-after': '1' },
            body: JSON.stringify({
              status: 'NG',
              code: 'ServiceUnavailable',
              reqId: 'e2e',
              msg: 'ただいま混み合っています。しばらくしてから再度お試しください。',
            }),
          }),
        { times: 1 },
      );
      await page.reload();
      await notice(page).getByText(UNAVAILABLE).waitFor();
      await page
        .getByRole('heading', { level: 1, name: '接続を待っています' })
        .waitFor();
      assert.equal(await storedRefreshToken(page), token, 'login kept');
      assert.equal(await alertDialogs(page), 0);
      await waitForSplash(page);
      await shootBoth(page, 'server-unavailable');
      // The retry (2 s ± 20 %) finds the server answering again.
      await page
        .getByRole('heading', { level: 1, name: 'スケジュール' })
        .waitFor({ timeout: 10_000 });
      await memberTabs(page).waitFor();
      assert.equal(await notice(page).textContent(), '');
      assert.notEqual(await storedRefreshToken(page), token);
    });
  });
});
