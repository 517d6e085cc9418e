/**
 * What the browser specs (and audits/web-audit.ts) do again and again: log in
 * through the form or the API, wait for the splash and for the page to
 * settle, and take screenshots at the two widths the design is checked at.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';

/** The seeded demo members' password (README: demo logins). */
export const DEMO_PASSWORD = 'proam-demo-2026';

/** The web app's client credentials (API_CLIENTS default), for API logins. */
export const CLIENT_AUTH = `Basic ${Buffer.from('web:proam-web-dev').toString('base64')}`;

export const SCREENSHOT_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'screenshots',
);

export const heading1 = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name });

/** The splash screen (about 1.5 s on a first load) has gone. */
export const waitForSplash = (page: Page) =>
  page.locator('#splash').waitFor({ state: 'detached', timeout: 5000 });

/** The page's requests have answered and the global spinner is gone. */
export const settle = async (page: Page) => {
  await page.waitForLoadState('networkidle');
  await page
    .locator('.global-spinner')
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => undefined);
};

/** The page's service worker is active (the app shell is cached for offline use). */
export const serviceWorkerActive = (page: Page) =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const worker = reg.active!;
    if (worker.state !== 'activated')
      await new Promise<void>((resolve) =>
        worker.addEventListener('statechange', () => {
          if (worker.state === 'activated') resolve();
        }),
      );
    return { state: worker.state, scope: reg.scope };
  });

/** Fills the login form the page shows and presses ログイン. */
export const submitLogin = async (
  page: Page,
  mail: string,
  password = DEMO_PASSWORD,
) => {
  await page.getByRole('textbox', { name: /メールアドレス/ }).fill(mail);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
};

/**
 * Opens `#<route>` (the login page, or a member page that shows the login
 * form), logs in, and waits for the page `h1` names; without `h1`, for the
 * member area's tab bar.
 */
export const loginThroughForm = async (
  page: Page,
  baseUrl: string,
  mail: string,
  options: { route?: string; h1?: string | RegExp; password?: string } = {},
) => {
  await page.goto(`${baseUrl}/#${options.route ?? '/auth'}`);
  await heading1(page, 'ログイン').waitFor();
  await submitLogin(page, mail, options.password);
  if (options.h1 !== undefined) {
    await heading1(page, options.h1).waitFor();
    return;
  }
  await page.waitForFunction(() => window.location.hash.startsWith('#/tabs/'));
  await page.locator('.tab-bar').waitFor();
};

/**
 * Signs the demo admin in through the form on 管理, waits for the splash to
 * go, and opens `section` of the admin tab (e.g. `mail`, `sales`) if given.
 */
export const loginAsAdmin = async (
  page: Page,
  baseUrl: string,
  section?: string,
) => {
  await loginThroughForm(page, baseUrl, 'admin@example.jp', {
    route: '/tabs/admin',
    h1: '管理',
    password: 'proam-admin-2026',
  });
  await waitForSplash(page);
  if (section) await page.goto(`${baseUrl}/#/tabs/admin?section=${section}`);
};

/** The page's live status message saying `text` (the toast after an action) has appeared. */
export const statusSays = (
  page: Page,
  text: string,
  state: 'visible' | 'attached' = 'visible',
) => page.getByRole('status').filter({ hasText: text }).waitFor({ state });

/**
 * Fills the registration form's last step for an amateur: 氏名, ふりがな, the
 * member type and the password in both boxes.
 */
export const fillAmateurProfile = async (
  page: Page,
  profile: { name: string; kana: string; password: string },
) => {
  await page.getByRole('textbox', { name: /^氏名/ }).fill(profile.name);
  await page.getByRole('textbox', { name: /^ふりがな/ }).fill(profile.kana);
  await page.getByRole('radio', { name: /アマチュア会員/ }).check();
  await page.locator('input[name="password"]').fill(profile.password);
  await page.locator('input[name="passwordConfirm"]').fill(profile.password);
};

export type ApiLogin = {
  token: string;
  user: { id: string; userName: string };
};

/** Logs a member in through the API (as the web app's client). */
export const apiLogin = async (
  baseUrl: string,
  mail: string,
  password = DEMO_PASSWORD,
): Promise<ApiLogin> => {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: CLIENT_AUTH },
    body: JSON.stringify({ mail, password }),
  });
  const json = (await res.json()) as {
    status: string;
    body: { token: { accessToken: string }; user: ApiLogin['user'] };
  };
  assert.equal(json.status, 'OK', `login ${mail}: ${JSON.stringify(json)}`);
  return { token: json.body.token.accessToken, user: json.body.user };
};

/** An API call (public, or as the member `as`) that must answer OK; its body. */
export const apiCall = async <T>(
  baseUrl: string,
  apiPath: string,
  body: unknown,
  as?: ApiLogin,
): Promise<T> => {
  const res = await fetch(`${baseUrl}/api${apiPath}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(as ? { authorization: `Bearer ${as.token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { status: string; body: T };
  assert.equal(
    json.status,
    'OK',
    `${apiPath} answered ${JSON.stringify(json)}`,
  );
  return json.body;
};

/** A date `days` ahead in Japan time, `YYYY-MM-DD`. */
export const japanDate = (days: number) =>
  new Date(Date.now() + 9 * 3600_000 + days * 86_400_000)
    .toISOString()
    .slice(0, 10);

/** Every visible element `selector` finds is at least 44 px high. */
export const assertTouchTargets = async (
  page: Page,
  selector: string,
  where: string,
) => {
  const small = await page.locator(selector).evaluateAll((els) =>
    els
      .map((el) => ({
        text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
        h: el.getBoundingClientRect().height,
      }))
      .filter((b) => b.h < 44),
  );
  assert.deepEqual(small, [], `${where}: touch targets under 44px`);
};

/** `screenshots/<name>.png` of the whole page (or only the window). */
export const screenshot = (
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
) =>
  page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: options.fullPage ?? true,
  });

/**
 * Screenshots `<width>-<name>.png` at 375 and 1280 px (or `widths`), checking
 * that nothing overflows sideways, then gives the page its width back.
 * `settle`: wait for the page's requests and spinner at each width; `top`:
 * scroll to the top first (fixed and sticky bars sit where they belong in a
 * full-page shot); `target`: the window with that element in its middle;
 * `fullPage: false`: the window only.
 */
export const shootBoth = async (
  page: Page,
  name: string,
  options: {
    settle?: boolean;
    top?: boolean;
    fullPage?: boolean;
    target?: Locator;
    widths?: readonly number[];
  } = {},
) => {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  const { target } = options;
  for (const width of options.widths ?? [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    if (options.settle) await settle(page);
    if (target) {
      await target.evaluate((el) =>
        el.scrollIntoView({ block: 'center', behavior: 'instant' }),
      );
      await page.waitForTimeout(150);
    } else if (options.top) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(100);
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(
      overflow <= 0,
      `${name} overflows by ${overflow}px at ${width}px`,
    );
    await screenshot(page, `${width}-${name}`, {
      fullPage: target ? false : (options.fullPage ?? true),
    });
  }
  await page.setViewportSize(original);
};

/** The card (article) of the lesson at `place`. */
export const lessonCard = (page: Page, place: string) =>
  page.locator('article', { hasText: place });

/** As a logged-in amateur: open the pro's schedule page and press 予約する on the lesson at `place`. */
export const reserveOnProPage = async (
  page: Page,
  baseUrl: string,
  proId: string,
  place: string,
) => {
  await page.goto(`${baseUrl}/#/tabs/schedule/pro/${proId}`);
  await heading1(page, /のスケジュール$/).waitFor();
  await lessonCard(page, place)
    .getByRole('button', { name: /を予約する$/ })
    .click();
};
