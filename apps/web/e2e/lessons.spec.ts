/**
 * Round lessons and their chat against the real server: a pro creates a
 * lesson, an amateur reserves it from the pro's schedule page, both open the
 * lesson chat and see each other's messages arrive over the WebSocket, and
 * Enter during IME composition never sends. Runs with its own server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  apiLogin,
  assertTouchTargets as touchTargets,
  japanDate,
  loginThroughForm,
  settle,
  shootBoth as shoot,
  waitForSplash,
} from './helpers.ts';
import { WEEKDAY_LABELS } from '../src/features/schedule/calendar.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

const login = async (page: Page, email: string) => {
  await loginThroughForm(page, suite.server.baseUrl, email, {
    route: '/tabs/schedule',
    h1: 'スケジュール',
  });
  await waitForSplash(page);
};

/** Screenshots at 375 and 1280 px, checking nothing overflows sideways. */
const shootBoth = (page: Page, name: string) =>
  // The header is sticky: shoot from the top so it sits where it belongs.
  shoot(page, name, { settle: true, top: true });

/** Every visible button and link in main is at least 44 px high. */
const assertTouchTargets = (page: Page, where: string) =>
  touchTargets(
    page,
    'main button:visible, main a.button:visible, main .chat-list a:visible',
    where,
  );

const userIdOf = async (mail: string): Promise<string> =>
  (await apiLogin(suite.server.baseUrl, mail)).user.id;

describe('round lessons and chat', () => {
  it('a pro creates a lesson, an amateur reserves it, and they chat live', async () => {
    const pro = await suite.openPage(1280);
    const ama = await suite.openPage(375);
    const place = `E2Eテストゴルフ倶楽部 ${Date.now() % 100000}`;
    const date = japanDate(9);
    try {
      const pro2Id = await userIdOf('pro2@example.jp');

      // The pro's calendar.
      await login(pro.page, 'pro2@example.jp');
      const p = pro.page;
      const heading = p.getByRole('heading', {
        level: 2,
        name: /^\d{4}年\d{1,2}月$/,
      });
      await heading.waitFor();
      const grid = p.getByRole('grid');
      assert.deepEqual(await grid.getByRole('columnheader').allTextContents(), [
        ...WEEKDAY_LABELS,
      ]);
      assert.equal(await grid.locator('[aria-current="date"]').count(), 1);
      // Lesson days are marked once the month's lessons have loaded.
      await grid.locator('.month-calendar__dot').first().waitFor();
      // Arrow keys move the chosen day.
      const todayButton = grid.locator('[aria-current="date"]');
      const todayLabel = (await todayButton.getAttribute('aria-label')) ?? '';
      await todayButton.focus();
      await p.keyboard.press('ArrowRight');
      const focused = await p.evaluate(() =>
        document.activeElement?.getAttribute('aria-label'),
      );
      assert.notEqual(focused, todayLabel);
      await p.keyboard.press('ArrowLeft');
      await shootBoth(p, 'lessons-pro-calendar');
      await assertTouchTargets(p, 'pro calendar');

      // The form keeps the input and explains mistakes in Japanese.
      await p.getByRole('button', { name: /新規レッスン/ }).click();
      await p
        .getByRole('heading', { level: 2, name: '新規レッスン' })
        .waitFor();
      await p.getByLabel('日付').fill(date);
      await p.getByLabel('開始時刻').fill('18:00');
      await p.getByLabel('終了時刻').fill('17:00');
      await p.getByLabel('料金 (円)').fill('15000');
      await p.getByRole('button', { name: '登録する' }).click();
      await p.getByText('ゴルフ場を入力してください。').waitFor();
      await p.getByText('終了時刻は開始時刻より後にしてください。').waitFor();
      assert.equal(await p.getByLabel('料金 (円)').inputValue(), '15000');
      await shootBoth(p, 'lessons-form');
      await p.getByLabel('終了時刻').fill('20:00');
      await p.getByLabel('ゴルフ場').fill(place);
      await p.getByLabel('地域').selectOption('千葉県');
      await p.getByLabel('定員').selectOption('2');
      await p.getByRole('button', { name: '登録する' }).click();
      await p.getByText('レッスンを登録しました。').waitFor();
      await p.getByText(place).waitFor();

      // An overlapping lesson is refused with a Japanese explanation.
      await p.getByRole('button', { name: /新規レッスン/ }).click();
      await p.getByLabel('日付').fill(date);
      await p.getByLabel('開始時刻').fill('19:00');
      await p.getByLabel('終了時刻').fill('21:00');
      await p.getByLabel('ゴルフ場').fill('重複テスト');
      await p.getByLabel('料金 (円)').fill('1000');
      await p.getByRole('button', { name: '登録する' }).click();
      await p
        .getByRole('alert')
        .filter({ hasText: 'この時間帯には別のレッスン' })
        .waitFor();
      assert.equal(await p.getByLabel('ゴルフ場').inputValue(), '重複テスト');
      await p.getByRole('button', { name: 'キャンセル' }).click();

      // The amateur's reservations, then the pro's page to reserve.
      await login(ama.page, 'ama4@example.jp');
      const a = ama.page;
      await a
        .getByRole('heading', { level: 2, name: '予約中のレッスン' })
        .waitFor();
      await shootBoth(a, 'lessons-amateur');
      await a.goto(`${suite.server.baseUrl}/#/tabs/schedule/pro/${pro2Id}`);
      await a
        .getByRole('heading', { level: 1, name: /のスケジュール$/ })
        .waitFor();
      const card = a.locator('article', { hasText: place });
      await card.getByRole('button', { name: /予約する/ }).click();
      await a.getByText(/を予約しました。/).waitFor();
      await card.getByText('予約済み').waitFor();
      await shootBoth(a, 'lessons-pro-page');
      await assertTouchTargets(a, 'pro page');

      // Both open the lesson chat.
      await a.goto(`${suite.server.baseUrl}/#/tabs/chat`);
      await a.getByRole('heading', { level: 1, name: 'チャット' }).waitFor();
      const item = a.locator('.chat-list a', { hasText: place });
      await item.waitFor();
      await shootBoth(a, 'lessons-chat-list');
      await assertTouchTargets(a, 'chat list');
      await item.click();
      await a
        .getByRole('heading', { level: 1, name: new RegExp(place) })
        .waitFor();
      const lessonId = a.url().split('/').pop()!;
      await p.goto(`${suite.server.baseUrl}/#/tabs/chat/${lessonId}`);
      await p
        .getByRole('heading', { level: 1, name: new RegExp(place) })
        .waitFor();
      await settle(a);
      await settle(p);
      // Let both sockets say hello.
      await a.waitForTimeout(500);

      const aBox = a.getByRole('textbox', { name: 'メッセージ' });
      const pBox = p.getByRole('textbox', { name: 'メッセージ' });
      assert.ok(await a.getByRole('button', { name: '送信' }).isDisabled());
      await aBox.fill('はじめまして、よろしくお願いします！');
      await aBox.press('Enter');
      await a.locator('.message--mine', { hasText: 'はじめまして' }).waitFor();
      // The box empties once the send resolves, which may be just after the message shows.
      await a.waitForFunction(
        () =>
          (document.querySelector<HTMLTextAreaElement>('.composer textarea')
            ?.value ?? '') === '',
        undefined,
        { timeout: 5000 },
      );
      assert.equal(await aBox.inputValue(), '');
      // Arrives on the pro's page without a reload.
      await p
        .locator('.message', { hasText: 'はじめまして' })
        .waitFor({ timeout: 10_000 });
      // The pro read it: the amateur sees 既読 1.
      await a
        .locator('.message--mine .message__read', { hasText: '既読 1' })
        .waitFor({ timeout: 10_000 });

      await pBox.fill('こちらこそ。当日は18時にクラブハウス集合です。');
      await pBox.press('Shift+Enter');
      await pBox.pressSequentially('よろしくお願いします。');
      assert.match(await pBox.inputValue(), /集合です。\nよろしく/);
      await pBox.press('Enter');
      await a
        .locator('.message', { hasText: '18時にクラブハウス' })
        .waitFor({ timeout: 10_000 });

      // Enter while an IME composes never sends (isComposing, keyCode 229).
      await pBox.fill('へんかんちゅう');
      await pBox.evaluate((el) => {
        el.dispatchEvent(
          new KeyboardEvent('keydown', {
            key: 'Enter',
            isComposing: true,
            bubbles: true,
            cancelable: true,
          }),
        );
        el.dispatchEvent(
          new KeyboardEvent('keydown', {
            key: 'Enter',
            keyCode: 229,
            bubbles: true,
            cancelable: true,
          }),
        );
      });
      await p.waitForTimeout(800);
      assert.equal(await pBox.inputValue(), 'へんかんちゅう');
      assert.equal(
        await p.locator('.message', { hasText: 'へんかんちゅう' }).count(),
        0,
      );
      await pBox.fill('');

      await shootBoth(a, 'lessons-conversation');
      await shootBoth(p, 'lessons-conversation-pro');
      await assertTouchTargets(a, 'conversation');

      // The overlap was provoked on purpose: the browser logs its 409.
      assert.deepEqual(
        pro.errors.filter(
          (e) =>
            e !==
            `Failed to load resource: the server responded with a status of 409 (Conflict) @ ${suite.server.baseUrl}/api/schedule/create`,
        ),
        [],
      );
      assert.deepEqual(ama.errors, []);
    } finally {
      await pro.context.close();
      await ama.context.close();
    }
  });

  it('shows the unread count on the チャット tab', async () => {
    await suite.withPage(375, async ({ page }) => {
      await login(page, 'ama1@example.jp');
      const tab = page
        .getByRole('navigation', { name: '会員メニュー' })
        .getByRole('link', { name: /^チャット 未読\d+件$/ });
      await tab.waitFor();
      await page.goto(`${suite.server.baseUrl}/#/tabs/chat`);
      await page.locator('.chat-list .unread-badge').first().waitFor();
      await shootBoth(page, 'lessons-chat-list-unread');
    });
  });
});
