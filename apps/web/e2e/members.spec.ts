/**
 * The member area's likes and profile tabs against the real server: profile
 * editing, photo upload, pro search with likes, and a pro's profile page.
 * Runs in its own process with its own server (see e2e/server.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  assertTouchTargets as touchTargets,
  loginThroughForm,
  settle,
  shootBoth as shoot,
  waitForSplash,
  statusSays,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

const login = async (page: Page, email: string, route: string, h1: string) => {
  await loginThroughForm(page, suite.server.baseUrl, email, { route, h1 });
  await waitForSplash(page);
};

/** Screenshots at 375 and 1280 px, checking nothing overflows sideways. */
const shootBoth = (page: Page, name: string) =>
  shoot(page, name, { settle: true });

/** Every visible button and link in main is at least 44 px high. */
const assertTouchTargets = (page: Page, where: string) =>
  touchTargets(
    page,
    'main button:visible, main .member-card a:visible, main .back-link a:visible',
    where,
  );

/** A 480×360 PNG drawn in the page (a golf green with a flag). */
const makePng = (page: Page): Promise<Buffer> =>
  page
    .evaluate(() => {
      const c = document.createElement('canvas');
      c.width = 480;
      c.height = 360;
      const g = c.getContext('2d')!;
      const sky = g.createLinearGradient(0, 0, 0, 360);
      sky.addColorStop(0, '#9fd3f5');
      sky.addColorStop(0.55, '#e6f4fb');
      sky.addColorStop(0.56, '#3f9b4f');
      sky.addColorStop(1, '#1f6b33');
      g.fillStyle = sky;
      g.fillRect(0, 0, 480, 360);
      g.fillStyle = '#5cbf6a';
      g.beginPath();
      g.ellipse(240, 260, 170, 50, 0, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = '#222';
      g.fillRect(268, 120, 4, 140);
      g.fillStyle = '#e8a33d';
      g.beginPath();
      g.moveTo(272, 120);
      g.lineTo(330, 140);
      g.lineTo(272, 160);
      g.fill();
      // Grass that does not compress: about 100 KB, enough bytes for the
      // upload's progress to be seen on a slow uplink.
      const grass = g.createImageData(480, 70);
      for (let i = 0; i < grass.data.length; i += 4) {
        grass.data[i] = 30 + Math.random() * 40;
        grass.data[i + 1] = 100 + Math.random() * 80;
        grass.data[i + 2] = 40 + Math.random() * 30;
        grass.data[i + 3] = 255;
      }
      g.putImageData(grass, 0, 290);
      return c.toDataURL('image/png').split(',')[1]!;
    })
    .then((b64) => Buffer.from(b64, 'base64'));

const likeCountIn = async (scope: ReturnType<Page['locator']>) =>
  Number(await scope.getByTestId('like-count').first().textContent());

/** Waits until the like count inside `scope` (a CSS selector) reads `n`. */
const likeCountBecomes = (page: Page, scope: string, n: number) =>
  page.waitForFunction(
    ([within, count]) =>
      document.querySelector(`${within} [data-testid="like-count"]`)
        ?.textContent === String(count),
    [scope, n] as const,
  );

describe('profile tab', () => {
  it('ama1 edits the profile, sees it after a reload, and uploads a photo shown from /media/', async () => {
    await suite.withPage(1280, async ({ page }) => {
      await login(page, 'ama1@example.jp', '/tabs/profile', 'プロフィール');
      const form = page.getByRole('form', { name: 'プロフィール編集' });
      await form.waitFor();
      const name = form.getByRole('textbox', { name: /^氏名/ });
      assert.equal(await name.inputValue(), '山本 拓也');

      // Japanese validation keeps what was typed.
      const score = form.getByRole('textbox', { name: /平均スコア/ });
      await score.fill('300');
      await form.getByRole('button', { name: '保存する' }).click();
      await form
        .getByText('平均スコアは50〜200の範囲で入力してください。')
        .waitFor();
      await form
        .getByRole('status')
        .filter({ hasText: '入力内容をご確認ください。' })
        .waitFor();
      assert.equal(await score.inputValue(), '300');
      assert.equal(
        await score.evaluate((el) =>
          el === document.activeElement
            ? 'score'
            : (document.activeElement?.outerHTML ?? '').slice(0, 200),
        ),
        'score',
      );

      const bio = `E2Eで更新した自己紹介です ${Date.now()}`;
      await score.fill('92');
      await form
        .getByRole('combobox', { name: /地域/ })
        .selectOption('神奈川県');
      await form.getByRole('textbox', { name: /自己紹介/ }).fill(bio);
      await form.getByRole('textbox', { name: /ゴルフ歴/ }).fill('4');
      await form.getByRole('button', { name: '保存する' }).click();
      await statusSays(page, 'プロフィールを保存しました。');

      await page.reload();
      await page.getByRole('form', { name: 'プロフィール編集' }).waitFor();
      const again = page.getByRole('form', { name: 'プロフィール編集' });
      assert.equal(
        await again.getByRole('textbox', { name: /自己紹介/ }).inputValue(),
        bio,
      );
      assert.equal(
        await again.getByRole('combobox', { name: /地域/ }).inputValue(),
        '神奈川県',
      );
      assert.equal(
        await again.getByRole('textbox', { name: /平均スコア/ }).inputValue(),
        '92',
      );
      assert.equal(
        await again.getByRole('textbox', { name: /ゴルフ歴/ }).inputValue(),
        '4',
      );

      // A file that is not an image is refused before any upload.
      const input = page.locator('input[type="file"]');
      await input.setInputFiles({
        name: 'memo.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hello'),
      });
      await page
        .getByRole('alert')
        .filter({ hasText: '登録できない形式です' })
        .waitFor();

      // On a slow uplink the bar follows the bytes as they go out.
      const png = await makePng(page);
      // Enough bytes for several reports of progress (the grass is noise).
      assert.ok(png.length > 80_000, `the photo has ${png.length} bytes`);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      const uplink = (uploadThroughput: number) =>
        cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput,
        });
      await uplink(32 * 1024);
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progressSeen: string[] }).progressSeen = seen;
        new MutationObserver(() => {
          const bar = document.querySelector('.photo-tile__progress');
          const text = bar?.getAttribute('aria-valuetext');
          if (text && seen.at(-1) !== text) seen.push(text);
          // The photo's own bar says it all: no app-wide spinner over it.
          const spinner = document.querySelector('.global-spinner');
          if (bar && spinner && getComputedStyle(spinner).display !== 'none')
            seen.push('global spinner');
        }).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
        });
      });
      const photo = page.getByRole('img', {
        name: /山本 拓也さんの写真 1枚目（メイン写真）/,
      });
      try {
        await input.setInputFiles({
          name: 'green.png',
          mimeType: 'image/png',
          buffer: png,
        });
        await photo.waitFor({ timeout: 30_000 });
      } finally {
        await uplink(-1);
      }
      const seen = await page.evaluate(
        () => (window as unknown as { progressSeen: string[] }).progressSeen,
      );
      const sent = seen.flatMap((t) => {
        const m = /^送信しています… (\d+)%/.exec(t);
        return m ? [Number(m[1])] : [];
      });
      assert.ok(
        sent.filter((p) => p > 0 && p < 100).length >= 3,
        `the share of the photo sent shows on the way (${seen.join(' / ')}; ${png.length} bytes)`,
      );
      assert.deepEqual(
        sent,
        [...sent].sort((a, b) => a - b),
        'the share sent only grows',
      );
      assert.ok(!seen.includes('global spinner'), seen.join(' / '));
      assert.match((await photo.getAttribute('src')) ?? '', /\/media\/users\//);
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>(
          '.photo-tile__img[src*="/media/"]',
        );
        return img !== null && img.complete && img.naturalWidth > 0;
      });
      await page.getByText('1 / 6枚').waitFor();
      await statusSays(page, '写真を1枚追加しました。', 'attached');

      // A second photo, made the main one with the keyboard-reachable button.
      await input.setInputFiles({
        name: 'green2.png',
        mimeType: 'image/png',
        buffer: await makePng(page),
      });
      await page.getByText('2 / 6枚').waitFor();
      const firstSrc = await page
        .locator('.photo-tile__img')
        .first()
        .getAttribute('src');
      await page
        .getByRole('button', { name: '2枚目の写真をメイン写真に設定' })
        .click();
      await page.waitForFunction(
        (src) =>
          document.querySelector('.photo-tile__img')?.getAttribute('src') !==
          src,
        firstSrc,
      );
      // Delete needs a confirmation.
      await page.getByRole('button', { name: '2枚目の写真を削除' }).click();
      const dialog = page.getByRole('dialog', { name: '写真の削除' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: '削除する' }).click();
      await page.getByText('1 / 6枚').waitFor();

      await settle(page);
      await assertTouchTargets(page, 'profile');
      await shootBoth(page, 'members-profile');
    });
  });
});

describe('likes tab', () => {
  it('ama1 sees liked pros, searches by area and keyword, likes and unlikes, and opens a pro profile', async () => {
    await suite.withPage(375, async ({ page }) => {
      await login(page, 'ama1@example.jp', '/tabs/likes', 'いいね');
      const liked = page.locator('section', {
        has: page.getByRole('heading', { name: 'いいねしたプロ' }),
      });
      await liked.getByRole('heading', { name: '佐藤 健一' }).waitFor();
      await liked.getByRole('heading', { name: '鈴木 大輔' }).waitFor();
      assert.equal(await liked.locator('.member-card').count(), 2);

      const search = page.getByRole('search', { name: 'プロ検索' });
      await search
        .getByRole('combobox', { name: '地域' })
        .selectOption('神奈川県');
      await search
        .getByRole('searchbox', { name: 'キーワード' })
        .fill('バンカー');
      await search.getByRole('button', { name: 'この条件で検索' }).click();
      const results = page.getByRole('list', { name: '検索結果' });
      await page.getByText('1人のプロが見つかりました').waitFor();
      const card = results.locator('.member-card', { hasText: '高橋 美咲' });
      await card.waitFor();
      assert.equal(await results.locator('.member-card').count(), 1);
      const before = await likeCountIn(card);

      const toggle = card.getByRole('button', {
        name: 'いいね（高橋 美咲さん）',
      });
      assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      await likeCountBecomes(page, '[aria-label="検索結果"]', before + 1);
      await liked.getByRole('heading', { name: '高橋 美咲' }).waitFor();
      await settle(page);
      await shootBoth(page, 'members-likes');

      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
      await likeCountBecomes(page, '[aria-label="検索結果"]', before);
      await liked
        .getByRole('heading', { name: '高橋 美咲' })
        .waitFor({ state: 'detached' });
      await settle(page);
      // The server agrees after a reload.
      await page.reload();
      await liked.getByRole('heading', { name: '佐藤 健一' }).waitFor();
      assert.equal(await liked.locator('.member-card').count(), 2);

      // いいね解除 from the liked list, then like again from the pro's page.
      await page.setViewportSize({ width: 1280, height: 900 });
      await liked.getByRole('link', { name: '鈴木 大輔' }).click();
      await page
        .getByRole('heading', { level: 1, name: '鈴木 大輔プロ' })
        .waitFor();
      await page.getByText('千葉夷隅ゴルフクラブ').waitFor();
      await page.getByText('JGTOツアープロ').waitFor();
      const proToggle = page.getByRole('button', {
        name: 'いいね（鈴木 大輔さん）',
      });
      assert.equal(await proToggle.getAttribute('aria-pressed'), 'true');
      const lessons = page.getByRole('link', {
        name: 'このプロのラウンドレッスンを見る',
      });
      assert.match(
        (await lessons.getAttribute('href')) ?? '',
        /#\/tabs\/schedule\/pro\/[0-9A-Z]+$/,
      );
      const profile = page.locator('.pro-profile');
      const count = await likeCountIn(profile);
      await proToggle.click();
      assert.equal(await proToggle.getAttribute('aria-pressed'), 'false');
      await likeCountBecomes(page, '.pro-profile', count - 1);
      await proToggle.click();
      await likeCountBecomes(page, '.pro-profile', count);
      await settle(page);
      await assertTouchTargets(page, 'pro profile');
      await shootBoth(page, 'members-pro-profile');
    });
  });

  it('pro1 sees the likes received, who liked them, and new amateurs', async () => {
    await suite.withPage(1280, async ({ page }) => {
      await login(page, 'pro1@example.jp', '/tabs/likes', 'いいね');
      const total = page.locator('.like-total');
      await total.locator('strong').waitFor();
      assert.equal(Number(await total.locator('strong').textContent()), 3);
      const likedBy = page.locator('section', {
        has: page.getByRole('heading', { name: 'いいねしてくれた会員' }),
      });
      await likedBy.getByRole('heading', { name: '山本 拓也' }).waitFor();
      assert.equal(await likedBy.locator('.member-card').count(), 3);
      await page
        .getByRole('heading', { name: '新しく登録したアマチュア会員' })
        .waitFor();
      await settle(page);
      await shootBoth(page, 'members-likes-pro');
    });
  });
});
