/**
 * A keyboard-only walk against the real server: an amateur logs in, finds a
 * pro, reserves one of the pro's lessons and sends a message in that
 * lesson's chat, using only Tab / Shift+Tab / Enter / Space and typing. Every
 * element the walk lands on must show a visible focus indicator. The lesson
 * is made through the API first, so the walk never depends on the seed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  apiLogin,
  DEMO_PASSWORD,
  japanDate,
  waitForSplash,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

type Focused = {
  tag: string;
  name: string;
  href: string | null;
  /** The element shows a focus ring (outline or box-shadow) under :focus-visible. */
  ring: boolean;
  /** Not hidden: some of it is painted inside the window. */
  onScreen: boolean;
};

/** What has the focus, and whether a sighted keyboard user can see that. */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return {
        tag: 'body',
        name: '',
        href: null,
        ring: false,
        onScreen: false,
      };
    const style = getComputedStyle(el);
    const outline =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    // A date or time field's calendar button lives in the browser's own shadow
    // tree: the field is not :focus then, and Chromium rings the button itself.
    const pickerButton =
      el instanceof HTMLInputElement &&
      /^(date|time|datetime-local|month|week)$/.test(el.type) &&
      !el.matches(':focus');
    const ring =
      pickerButton ||
      (el.matches(':focus-visible') && (outline || style.boxShadow !== 'none'));
    const box = el.getBoundingClientRect();
    const onScreen =
      box.width > 0 &&
      box.height > 0 &&
      box.bottom > 0 &&
      box.right > 0 &&
      box.top < window.innerHeight &&
      box.left < window.innerWidth &&
      style.visibility !== 'hidden';
    const labelled = el.getAttribute('aria-label');
    const labels = (el as HTMLInputElement).labels;
    const name =
      labelled ??
      (labels && labels.length > 0
        ? (labels[0]?.textContent ?? '')
        : (el.textContent ?? ''));
    return {
      tag: el.tagName.toLowerCase(),
      name: name.replace(/\s+/g, ' ').trim(),
      href: el.getAttribute('href'),
      ring,
      onScreen,
    };
  });

/** Every stop of the walk, for the failure message. */
const trail: string[] = [];

/**
 * Presses Tab (or Shift+Tab) until the focus is on what `wanted` accepts,
 * checking at each stop that the focused element is on screen with a
 * visible focus ring. Fails when it takes more than `max` presses.
 */
const tabTo = async (
  page: Page,
  what: string,
  wanted: (f: Focused) => boolean,
  { backwards = false, max = 60 } = {},
): Promise<Focused> => {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    trail.push(`${f.tag} "${f.name}"${f.href ? ` ${f.href}` : ''}`);
    assert.ok(
      f.ring && f.onScreen,
      `no visible focus on ${f.tag} "${f.name}" (ring ${f.ring}, on screen ${f.onScreen}) while tabbing to ${what}`,
    );
    if (wanted(f)) return f;
  }
  assert.fail(
    `${what} not reached in ${max} ${backwards ? 'Shift+Tab' : 'Tab'} presses; stops:\n${trail.slice(-max).join('\n')}`,
  );
};

const named = (name: string | RegExp) => (f: Focused) =>
  typeof name === 'string' ? f.name === name : name.test(f.name);

describe('keyboard only', () => {
  it('logs in, reserves a pro’s lesson and writes in its chat', async () => {
    // A lesson of pro3 that nobody has reserved yet.
    const { token, user: pro } = await apiLogin(
      suite.server.baseUrl,
      'pro3@example.jp',
    );
    const place = `キーボード検証ゴルフ倶楽部 ${Date.now() % 100000}`;
    // The seed fills the pro's mornings: take the first day whose early slot is free.
    let created = 0;
    for (let day = 8; day < 28 && created !== 200; day++) {
      const res = await fetch(`${suite.server.baseUrl}/api/schedule/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          date: japanDate(day),
          startTime: '06:00',
          endTime: '07:30',
          place,
          area: '千葉県',
          capacity: 2,
          fee: 12000,
        }),
      });
      created = res.status;
    }
    assert.equal(created, 200, 'made a lesson for the walk');

    await suite.withPage(1280, async ({ page }) => {
      await page.goto(`${suite.server.baseUrl}/#/auth`);
      await page.getByRole('heading', { level: 1, name: 'ログイン' }).waitFor();
      await waitForSplash(page);

      // The skip link comes first and moves the focus to the page itself.
      await tabTo(page, 'the skip link', named('本文へスキップ'), { max: 1 });
      await page.keyboard.press('Enter');
      // Pressed before the app has hydrated the prerendered page, the link
      // is held and followed once it has (boot/prerendered-page.ts): a CI run
      // on a busy machine read the focus in between.
      await page.waitForFunction(
        () => document.activeElement?.id === 'main',
        undefined,
        { timeout: 10_000 },
      );

      // Login.
      await tabTo(
        page,
        'the mail field',
        (f) => f.tag === 'input' && /メールアドレス/.test(f.name),
      );
      await page.keyboard.type('ama2@example.jp');
      await tabTo(
        page,
        'the password field',
        (f) => f.tag === 'input' && /パスワード/.test(f.name),
      );
      await page.keyboard.type(DEMO_PASSWORD);
      await tabTo(
        page,
        'the login button',
        (f) => f.tag === 'button' && f.name === 'ログイン',
      );
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 1, name: 'スケジュール' })
        .waitFor();

      // The いいね tab, then the pro search by name.
      await tabTo(page, 'the いいね tab', (f) => f.href === '#/tabs/likes');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'いいね' }).waitFor();
      await tabTo(
        page,
        'the keyword field',
        (f) => f.tag === 'input' && /キーワード/.test(f.name),
        { max: 80 },
      );
      await page.keyboard.type(pro.userName);
      await page.keyboard.press('Enter');
      const profileHref = `#/tabs/likes/pro/${pro.id}`;
      // The unfiltered list may already hold the pro's card: wait for the
      // search's own answer, or the list swaps under the walk and the focus
      // lands on a card that is gone.
      await page.waitForFunction((href) => {
        const results = document.querySelector('main .search-results');
        const links = [
          ...(results?.querySelectorAll('ul[aria-label="検索結果"] a') ?? []),
        ].map((a) => a.getAttribute('href'));
        return (
          results?.getAttribute('aria-busy') === 'false' &&
          links.length > 0 &&
          links.every((h) => h === href)
        );
      }, profileHref);
      await tabTo(
        page,
        `${pro.userName}'s profile link`,
        (f) => f.href === profileHref,
      );
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 1, name: new RegExp(pro.userName) })
        .waitFor();

      // The pro's lessons: reserve ours with Space.
      await tabTo(
        page,
        'the link to the pro’s lessons',
        named('このプロのラウンドレッスンを見る'),
      );
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 1, name: /のスケジュール$/ })
        .waitFor();
      const card = page.locator('article', { hasText: place });
      await card.waitFor();
      const reserveName =
        (await card
          .getByRole('button', { name: /予約する/ })
          .getAttribute('aria-label')) ?? '';
      await tabTo(page, 'our lesson’s 予約する button', named(reserveName), {
        max: 120,
      });
      await page.keyboard.press('Space');
      await page.getByText(/を予約しました。/).waitFor();
      await card.getByText('予約済み').waitFor();

      // The button made way for 予約済み, チャット and キャンセル: the focus
      // moved on to the lesson's チャット link rather than off the page.
      const chatHref =
        (await card
          .getByRole('link', { name: /チャット/ })
          .getAttribute('href')) ?? '';
      assert.match(chatHref, /^#\/tabs\/chat\/.+/);
      await page.waitForFunction(
        (href) => document.activeElement?.getAttribute('href') === href,
        chatHref,
        { timeout: 5000 },
      );
      const atChat = await focused(page);
      assert.ok(
        atChat.ring && atChat.onScreen,
        'the チャット link shows its focus',
      );
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 1, name: new RegExp(place) })
        .waitFor();
      await tabTo(page, 'the message box', (f) => f.tag === 'textarea', {
        max: 80,
      });
      await page.keyboard.type(
        'キーボードだけで予約しました。よろしくお願いします。',
      );
      await page.keyboard.press('Enter');
      await page
        .locator('.message--mine', { hasText: 'キーボードだけで予約しました' })
        .waitFor();

      // Back up to the スケジュール tab: the lesson is among the reservations.
      await tabTo(
        page,
        'the スケジュール tab',
        (f) => f.href === '#/tabs/schedule',
        { backwards: true, max: 80 },
      );
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 2, name: '予約中のレッスン' })
        .waitFor();
      await page.locator('main article', { hasText: place }).waitFor();
    });
  });
});
