/**
 * Reviews, pro verification, reports and blocks (wave 2) against
 * the real server and its demo data: ama1 reviews the past lesson of pro1
 * they took (the demo leaves it unreviewed) and finds it on pro1's profile;
 * pro1 replies from their profile tab; ama1 reports another member's review,
 * blocks a pro and lifts the block from ブロック中のメンバー; pro6 (not yet
 * verified) sees 「運営による確認中です」. axe runs on each new screen.
 * Runs with its own server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Review } from '@proam/contract';
import { assertNoSeriousAxe } from './a11y.ts';
import {
  apiCall,
  apiLogin,
  loginThroughForm,
  settle,
  shootBoth,
  waitForSplash,
  type ApiLogin,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

const login = async (page: Page, email: string, route: string, h1: string) => {
  await loginThroughForm(page, suite.server.baseUrl, email, { route, h1 });
  await waitForSplash(page);
  await settle(page);
};

const go = async (page: Page, route: string) => {
  await page.goto(`${suite.server.baseUrl}/#${route}`);
  await settle(page);
};

/**
 * `375-trust-<name>.png` and `1280-trust-<name>.png` with `target` in the
 * middle of the window (the whole page without one); nothing overflows.
 */
const shoot = (page: Page, name: string, target?: Locator) =>
  shootBoth(page, `trust-${name}`, { settle: true, target });

/** A call as a logged-in member; it must answer OK. */
const memberCall = <T>(who: ApiLogin, apiPath: string, body: unknown) =>
  apiCall<T>(suite.server.baseUrl, apiPath, body, who);

const reviewsOf = (who: ApiLogin, proId: string) =>
  memberCall<Review[]>(who, '/review/list', { proId, size: 50 });

describe('reviews, verification, reports and blocks', () => {
  it('ama1 reviews their past lesson, pro1 replies, ama1 reports a review and blocks and unblocks a pro, pro6 sees 確認中', async () => {
    const stamp = Date.now() % 100000;
    const comment = `E2E口コミ ${stamp}：説明が丁寧で分かりやすかったです。`;
    const reply = `E2E返信 ${stamp}：ご参加ありがとうございました。`;
    const pro1 = await apiLogin(suite.server.baseUrl, 'pro1@example.jp');
    const pro2 = await apiLogin(suite.server.baseUrl, 'pro2@example.jp');
    const ama1 = await apiLogin(suite.server.baseUrl, 'ama1@example.jp');
    const before = await reviewsOf(ama1, pro1.user.id);
    assert.ok(before.length >= 3, 'pro1 has demo reviews');
    assert.ok(!before.some((r) => r.userId === ama1.user.id));

    // --- ama1: the invitation on the past lesson, then the review. ---
    await suite.withPage(1280, async ({ page }) => {
      await login(page, 'ama1@example.jp', '/tabs/schedule', 'スケジュール');
      const past = page.getByRole('region', { name: '受講したレッスン' });
      const invite = past
        .getByRole('button', { name: /口コミを書く$/ })
        .first();
      await invite.waitFor();
      const card = past
        .locator('article', {
          has: page.getByText('レッスンはいかがでしたか？'),
        })
        .first();
      await shoot(page, 'invitation', card);
      await assertNoSeriousAxe(page, 'schedule with the invitation');

      await invite.click();
      const dialog = page.getByRole('dialog', { name: '口コミを書く' });
      await dialog.waitFor();
      // Keyboard only: the first star has the focus; Space, then → ×3.
      await page.keyboard.press('Space');
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      assert.ok(await dialog.getByRole('radio', { name: '★4' }).isChecked());
      await dialog.getByRole('textbox', { name: /コメント/ }).fill(comment);
      await shoot(page, 'review-dialog', dialog);
      await assertNoSeriousAxe(page, 'review dialog');
      await dialog.getByRole('button', { name: '投稿する' }).click();
      await page.getByText('口コミを投稿しました。').waitFor();
      await past.getByText(comment).waitFor();
      await past.getByRole('button', { name: /口コミを編集$/ }).waitFor();
      await past.getByRole('button', { name: /口コミを削除$/ }).waitFor();

      // --- pro1's profile: ★ average, count, ama1's review first. ---
      await go(page, `/tabs/likes/pro/${pro1.user.id}`);
      const reviews = page.getByRole('region', { name: '口コミ', exact: true });
      await reviews.getByText(comment).waitFor();
      const summary = page.locator('.rating-summary').first();
      assert.match(
        (await summary.textContent()) ?? '',
        new RegExp(`★\\d\\.\\d\\s*口コミ ${before.length + 1}件`),
      );
      const items = reviews.getByRole('listitem');
      assert.match((await items.first().textContent()) ?? '', /E2E口コミ/);
      // The demo's reply shows under its review.
      await reviews.getByText('プロからの返信').first().waitFor();
      await shoot(page, 'pro-profile', summary);
      await shoot(page, 'pro-reviews', reviews);
      await assertNoSeriousAxe(page, 'pro profile with reviews');

      // --- ama1 reports another member's review (not their own). ---
      assert.equal(
        await items
          .first()
          .getByRole('button', { name: /を通報する$/ })
          .count(),
        0,
        'no 通報 on one’s own review',
      );
      await items
        .nth(1)
        .getByRole('button', { name: /さんの口コミを通報する$/ })
        .click();
      const report = page.getByRole('dialog', { name: '通報する' });
      await report.waitFor();
      await report.getByRole('button', { name: '通報する' }).click();
      await report.getByText('通報の理由を選択してください。').waitFor();
      await report
        .getByRole('combobox', { name: /通報の理由/ })
        .selectOption('不適切な内容・表現');
      await report
        .getByRole('textbox', { name: /詳しい内容/ })
        .fill(`E2E通報 ${stamp}`);
      await shoot(page, 'report-dialog', report);
      await assertNoSeriousAxe(page, 'report dialog');
      await report.getByRole('button', { name: '通報する' }).click();
      await page.getByText('通報を受け付けました').waitFor();

      // --- ama1 blocks pro2, finds them in ブロック中のメンバー, lifts it. ---
      await go(page, `/tabs/likes/pro/${pro2.user.id}`);
      const name = `${pro2.user.userName}プロ`;
      await page.getByRole('button', { name: `${name}をブロックする` }).click();
      const confirm = page.getByRole('dialog', { name: 'ブロックの確認' });
      await confirm.getByRole('button', { name: 'ブロックする' }).click();
      await page.getByText(`${name}をブロック中です。`).waitFor();
      await page
        .getByRole('button', { name: `${name}をブロック解除` })
        .waitFor();
      await assertNoSeriousAxe(page, 'blocked pro profile');
      await go(page, '/tabs/profile');
      const blocked = page.getByRole('region', {
        name: 'ブロック中のメンバー',
      });
      const unblock = blocked.getByRole('button', {
        name: `${pro2.user.userName}さんのブロックを解除`,
      });
      await unblock.waitFor();
      await shoot(page, 'blocked-members', blocked);
      await assertNoSeriousAxe(page, 'profile with blocked members');
      await unblock.click();
      await blocked.getByText('ブロック中のメンバーはいません。').waitFor();

      // --- 通報する beside others' chat messages (not one's own). ---
      const chats = await memberCall<
        { schedule: { id: string }; lastMessage: { sender: string } | null }[]
      >(ama1, '/roundLesson/lessons', { userId: ama1.user.id });
      const chat = chats.find(
        (c) => c.lastMessage && c.lastMessage.sender !== ama1.user.id,
      );
      assert.ok(chat, 'ama1 has a chat with others’ messages');
      await go(page, `/tabs/chat/${chat.schedule.id}`);
      const flag = page
        .getByRole('button', { name: /さんのメッセージを通報する$/ })
        .last();
      await flag.click();
      const chatReport = page.getByRole('dialog', { name: '通報する' });
      await chatReport
        .getByText(/さんのメッセージを運営に通報します/)
        .waitFor();
      await shoot(page, 'chat-report-dialog', chatReport);
      await assertNoSeriousAxe(page, 'chat with the report dialog');
      await chatReport.getByRole('button', { name: 'キャンセル' }).click();
      await chatReport.waitFor({ state: 'hidden' });
    });

    // --- pro1 replies from their profile tab. ---
    const mine = (await reviewsOf(pro1, pro1.user.id)).find(
      (r) => r.comment === comment,
    );
    assert.ok(mine, 'the review is stored');
    assert.equal(mine.rating, 4);
    const proPage = await suite.openPage(375);
    try {
      const { page: p } = proPage;
      await login(p, 'pro1@example.jp', '/tabs/profile', 'プロフィール');
      const own = p.getByRole('region', { name: 'あなたへの口コミ' });
      const item = own.getByRole('listitem').filter({ hasText: comment });
      await item
        .getByRole('button', { name: /さんの口コミに返信する$/ })
        .click();
      await item.getByRole('textbox', { name: /への返信/ }).fill(reply);
      await assertNoSeriousAxe(p, 'pro profile tab with the reply box');
      await item.getByRole('button', { name: '返信する' }).click();
      await item.getByText('返信を送信しました。').waitFor();
      await item.getByText(reply).waitFor();
      await shoot(p, 'pro-own-reviews', item);
      // The amateurs on the pro's likes tab can be reported and blocked.
      await go(p, '/tabs/likes');
      await p
        .getByRole('button', { name: /さんのプロフィールを通報する$/ })
        .first()
        .waitFor();
      await p
        .getByRole('button', { name: /さんをブロックする$/ })
        .first()
        .waitFor();
      await assertNoSeriousAxe(p, 'pro likes tab with 通報 and ブロック');
      assert.deepEqual(proPage.errors, []);
    } finally {
      await proPage.context.close();
    }
    const replied = (await reviewsOf(ama1, pro1.user.id)).find(
      (r) => r.id === mine.id,
    );
    assert.equal(replied?.reply, reply);

    // --- pro6, not verified yet: the banner on the profile and schedule tabs. ---
    const pro6Page = await suite.openPage(1280);
    try {
      const { page: p } = pro6Page;
      await login(p, 'pro6@example.jp', '/tabs/profile', 'プロフィール');
      const banner = p.getByRole('region', { name: '運営による確認中です' });
      await banner.waitFor();
      assert.match(
        (await banner.textContent()) ?? '',
        /プロフィールの編集とラウンドレッスンの登録はできます/,
      );
      await shoot(p, 'banner-profile', banner);
      await assertNoSeriousAxe(p, 'profile tab with the banner');
      await go(p, '/tabs/schedule');
      await banner.waitFor();
      await shoot(p, 'banner-schedule', banner);
      await assertNoSeriousAxe(p, 'schedule tab with the banner');
      assert.deepEqual(pro6Page.errors, []);
    } finally {
      await pro6Page.context.close();
    }

    // A verified pro sees no banner.
    const pro1Page = await suite.openPage(1280);
    try {
      const { page: p } = pro1Page;
      await login(p, 'pro1@example.jp', '/tabs/schedule', 'スケジュール');
      assert.equal(await p.getByText('運営による確認中です').count(), 0);
    } finally {
      await pro1Page.context.close();
    }
  });
});
