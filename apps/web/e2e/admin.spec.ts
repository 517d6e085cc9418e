/**
 * The admin's tools against the real server. The admin creates a
 * competition, enters its results and finishes it, publishes one news item
 * and schedules another; a visitor then sees exactly what was published, and
 * an amateur gets no admin tab. Runs in its own process with its own server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  apiCall,
  heading1,
  loginThroughForm,
  shootBoth as shoot,
  waitForSplash,
  statusSays,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

/** Opens a member page, logs in on the way and comes back to it. */
const login = async (
  page: Page,
  email: string,
  password: string,
  route: string,
  h1: string,
) => {
  await loginThroughForm(page, suite.server.baseUrl, email, {
    route,
    h1,
    password,
  });
  await page.waitForLoadState('networkidle');
};

/** Logs in on the way to the 大会 tab and waits for `tab` in the member tab bar, which it returns. */
const openCompetitions = async (
  page: Page,
  email: string,
  password: string,
  tab: string,
) => {
  await login(page, email, password, '/tabs/competitions', '大会');
  await waitForSplash(page);
  const tabBar = page.getByRole('navigation', { name: '会員メニュー' });
  await tabBar.getByRole('link', { name: tab }).waitFor();
  return tabBar;
};

/** Moves within the app (same document: the store and its caches stay). */
const go = async (page: Page, route: string, h1: string | RegExp) => {
  await page.evaluate((r) => {
    window.location.hash = `#${r}`;
  }, route);
  await heading1(page, h1).waitFor();
  await page.waitForLoadState('networkidle');
};

/** Screenshots at 375 and 1280 px from the top, checking nothing overflows sideways. */
const shootBoth = (page: Page, name: string) =>
  shoot(page, name, { top: true });

const api = <T>(p: string, body: unknown) =>
  apiCall<T>(suite.server.baseUrl, p, body);

/** `YYYY-MM-DD` and `YYYY-MM-DDTHH:mm` in Japan time, `days` from now. */
const japanLocal = (days: number) =>
  new Date(Date.now() + days * 86_400_000 + 9 * 3_600_000)
    .toISOString()
    .slice(0, 16);

const stamp = Date.now().toString(36);
const COMPETITION = `E2E 秋季プロアム ${stamp}`;
const NEWS = `E2E 大会結果のお知らせ ${stamp}`;
const SCHEDULED = `E2E 予約投稿のお知らせ ${stamp}`;
const CONTACT_NAME = '問合 太郎';

describe('admin tools', () => {
  it('the admin publishes a competition with results and news; visitors see only what is published', async () => {
    await api('/contact/create', {
      name: CONTACT_NAME,
      email: 'toiawase@example.jp',
      phone: '03-1234-5678',
      category: '大会・イベントについて',
      message: '次回の大会の参加条件を教えてください。\nよろしくお願いします。',
    });

    await suite.withPage(1280, async ({ page }) => {
      await openCompetitions(
        page,
        'admin@example.jp',
        'proam-admin-2026',
        '管理',
      );
      // The seed's draft is listed for the admin, with its badge.
      const drafts = page.getByRole('region', { name: /下書き/ });
      await drafts.locator('.status-badge--draft').first().waitFor();
      await shootBoth(page, 'tabs-competitions-admin');

      // 新規作成: errors in Japanese first, input kept.
      await page.getByRole('button', { name: '新規作成' }).click();
      await page.getByRole('heading', { name: '大会を新規作成' }).waitFor();
      await page.getByRole('textbox', { name: /大会名/ }).fill(COMPETITION);
      await page.getByRole('button', { name: '作成する' }).click();
      await page.getByText('開催日を入力してください。').waitFor();
      await page.getByText('会場を入力してください。').waitFor();
      assert.equal(
        await page.getByRole('textbox', { name: /大会名/ }).inputValue(),
        COMPETITION,
      );
      await page.getByLabel(/開催日/).fill(japanLocal(0).slice(0, 10));
      await page
        .getByRole('textbox', { name: /会場/ })
        .fill('E2E カントリー倶楽部');
      await page
        .getByRole('combobox', { name: /開催エリア/ })
        .selectOption('千葉県');
      await page
        .getByRole('combobox', { name: /ステータス/ })
        .selectOption('open');
      await page.getByRole('textbox', { name: /参加費/ }).fill('15000');
      await page.getByRole('textbox', { name: /定員/ }).fill('40');
      await page
        .getByRole('textbox', { name: /大会概要/ })
        .fill('E2E で作成した大会です。');
      await page.getByRole('button', { name: '作成する' }).click();
      await statusSays(page, `「${COMPETITION}」を作成しました。`);

      const upcoming = page.getByRole('region', { name: '開催予定の大会' });
      const card = upcoming
        .getByRole('article')
        .filter({ hasText: COMPETITION });
      await card.getByText('エントリー受付中').waitFor();

      // Results: a duplicate rank and a missing name are refused in Japanese.
      await card.getByRole('button', { name: '結果を入力' }).click();
      await page.getByRole('heading', { name: '結果を入力' }).waitFor();
      const cell = (row: number, col: string) =>
        page.getByRole('textbox', { name: `${row}行目の${col}`, exact: true });
      await cell(1, '選手名').fill('E2E 一郎');
      await cell(1, 'スコア').fill('68');
      await page.getByRole('button', { name: '行を追加' }).click();
      await cell(2, '選手名').fill('E2E 二郎');
      await cell(2, 'スコア').fill('71');
      await page.getByRole('button', { name: '行を追加' }).click();
      await cell(3, '順位').fill('2');
      await page.getByRole('button', { name: '結果を保存する' }).click();
      await page.getByText('順位が重複しています。').first().waitFor();
      await page.getByText('選手名を入力してください。').waitFor();
      await shootBoth(page, 'tabs-competitions-results-editor');
      await cell(3, '順位').fill('3');
      await cell(3, '選手名').fill('E2E 三郎');
      await page.getByRole('button', { name: '3行目を削除' }).click();
      await page.getByRole('button', { name: '行を追加' }).click();
      await cell(3, '選手名').fill('E2E 三郎');
      await cell(3, 'スコア').fill('７３');
      const finish = page.getByRole('checkbox', {
        name: /ステータスを「終了」/,
      });
      if (!(await finish.isChecked())) await finish.check();
      await page.getByRole('button', { name: '結果を保存する' }).click();
      await statusSays(page, '結果（3名）を保存しました');

      const past = page.getByRole('region', { name: '過去の大会と結果' });
      const block = past.getByRole('article').filter({ hasText: COMPETITION });
      const rows = block.getByRole('table').getByRole('row');
      assert.deepEqual(
        (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
        [
          '順位 選手名 スコア',
          '1位 E2E 一郎 68',
          '2位 E2E 二郎 71',
          '3位 E2E 三郎 73',
        ],
      );
      assert.equal(await upcoming.getByText(COMPETITION).count(), 0);

      // The public event page, in the same session: the change is there without a reload.
      await go(page, '/event', 'イベント日程・結果');
      await page
        .getByRole('region', { name: '大会結果' })
        .getByRole('heading', { name: COMPETITION })
        .waitFor();

      // 管理 → お知らせ: one published now, one scheduled for tomorrow.
      await go(page, '/tabs/admin?section=news', '管理');
      await page
        .getByRole('tab', { name: 'お知らせ', selected: true })
        .waitFor();
      await page.getByRole('button', { name: 'お知らせを作成' }).click();
      await page.getByRole('heading', { name: 'お知らせを作成' }).waitFor();
      await page.getByRole('textbox', { name: /タイトル/ }).fill(NEWS);
      await page.getByRole('textbox', { name: /カテゴリ/ }).fill('大会');
      await page
        .getByRole('textbox', { name: /本文/ })
        .fill(
          'E2E 秋季プロアムの結果を掲載しました。\n優勝は E2E 一郎 選手です。\n\n<b>ご参加ありがとうございました。</b>',
        );
      const preview = page.getByRole('region', { name: 'プレビュー' });
      await preview.getByText(NEWS).waitFor();
      assert.deepEqual(
        await preview.locator('.article__body p').allTextContents(),
        [
          'E2E 秋季プロアムの結果を掲載しました。\n優勝は E2E 一郎 選手です。',
          '<b>ご参加ありがとうございました。</b>',
        ],
      );
      assert.equal(await preview.locator('b').count(), 0, 'no HTML injection');
      await shootBoth(page, 'tabs-admin-news-editor');
      await page.getByRole('button', { name: '公開する' }).click();
      await statusSays(page, `「${NEWS}」を作成しました。公開中です。`);
      const newsItem = page.getByRole('listitem').filter({ hasText: NEWS });
      await newsItem.getByText('公開中', { exact: true }).waitFor();

      await page.getByRole('button', { name: 'お知らせを作成' }).click();
      await page.getByRole('textbox', { name: /タイトル/ }).fill(SCHEDULED);
      await page
        .getByRole('textbox', { name: /本文/ })
        .fill('明日公開されるお知らせです。');
      await page.getByLabel(/公開日時/).fill(japanLocal(1));
      await page.getByRole('button', { name: '予約投稿する' }).click();
      await statusSays(page, '（予約投稿）');
      const scheduledItem = page
        .getByRole('listitem')
        .filter({ hasText: SCHEDULED });
      await scheduledItem.getByText('予約投稿', { exact: true }).waitFor();
      await scheduledItem.getByText(/公開予定/).waitFor();
      await shootBoth(page, 'tabs-admin-news-list');

      // お問い合わせ: the inbox with the 対応済み toggle.
      await page.getByRole('tab', { name: 'お問い合わせ' }).click();
      const message = page
        .getByRole('listitem')
        .filter({ hasText: CONTACT_NAME });
      const mailLink = message.getByRole('link', {
        name: 'toiawase@example.jp',
      });
      await mailLink.waitFor();
      assert.equal(
        await mailLink.getAttribute('href'),
        'mailto:toiawase@example.jp',
      );
      await shootBoth(page, 'tabs-admin-contact');
      await message.getByRole('button', { name: '対応済みにする' }).click();
      await statusSays(page, '対応済みにしました');
      await page.getByText('未対応のお問い合わせはありません。').waitFor();
      await page.getByRole('radio', { name: '対応済み' }).check();
      await page
        .getByRole('listitem')
        .filter({ hasText: CONTACT_NAME })
        .getByRole('button', { name: '未対応に戻す' })
        .waitFor();

      // 操作履歴: the changes above, in Japanese.
      await page.getByRole('tab', { name: '操作履歴' }).click();
      const log = page.getByRole('table', { name: /操作履歴/ });
      await log.getByRole('cell', { name: '大会を作成' }).first().waitFor();
      await log.getByRole('cell', { name: 'お知らせを作成' }).first().waitFor();
      await log
        .getByRole('cell', { name: 'お問い合わせの対応状況を変更' })
        .first()
        .waitFor();
      await shootBoth(page, 'tabs-admin-audit');

      // The tabs follow the WAI-ARIA keyboard pattern.
      await page.getByRole('tab', { name: '操作履歴' }).focus();
      await page.keyboard.press('Home');
      await page
        .getByRole('tab', { name: 'ダッシュボード', selected: true })
        .waitFor();

      // The public news list, same session: published item only.
      await go(page, '/info', '最新情報');
      await page.getByRole('link', { name: new RegExp(NEWS) }).waitFor();
      assert.equal(await page.getByText(SCHEDULED).count(), 0);
    });

    // A visitor (no login) sees exactly what was published.
    const visitor = await suite.openPage(375);
    try {
      const { page } = visitor;
      await page.goto(`${suite.server.baseUrl}/#/event`);
      await heading1(page, 'イベント日程・結果').waitFor();
      const results = page.getByRole('region', { name: '大会結果' });
      const block = results
        .getByRole('article')
        .filter({ hasText: COMPETITION });
      await block.getByRole('row', { name: /E2E 一郎/ }).waitFor();
      await block.getByRole('row', { name: /E2E 三郎/ }).waitFor();
      assert.equal(
        await page.getByText('下書き').count(),
        0,
        'no drafts in public',
      );

      await page.goto(`${suite.server.baseUrl}/#/info`);
      await heading1(page, '最新情報').waitFor();
      await page.getByRole('link', { name: new RegExp(NEWS) }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(
        await page.getByText(SCHEDULED).count(),
        0,
        'scheduled news hidden',
      );

      await page.getByRole('link', { name: new RegExp(NEWS) }).click();
      await heading1(page, NEWS).waitFor();
      assert.deepEqual(
        await page.locator('.article__body p').allTextContents(),
        [
          'E2E 秋季プロアムの結果を掲載しました。\n優勝は E2E 一郎 選手です。',
          '<b>ご参加ありがとうございました。</b>',
        ],
      );

      await page.goto(`${suite.server.baseUrl}/#/`);
      await page.getByRole('link', { name: new RegExp(NEWS) }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await page.getByText(SCHEDULED).count(), 0);
      assert.deepEqual(visitor.errors, []);
    } finally {
      await visitor.context.close();
    }
  });

  it('an amateur sees the 大会 tab without admin tools, and #/tabs/admin says 権限がありません', async () => {
    await suite.withPage(375, async ({ page }) => {
      const tabBar = await openCompetitions(
        page,
        'ama1@example.jp',
        'proam-demo-2026',
        '大会',
      );
      assert.equal(await tabBar.getByRole('link', { name: '管理' }).count(), 0);
      await page.getByRole('region', { name: '開催予定の大会' }).waitFor();
      await page
        .getByRole('region', { name: '過去の大会と結果' })
        .getByRole('table')
        .first()
        .waitFor();
      assert.equal(
        await page.getByRole('button', { name: '新規作成' }).count(),
        0,
      );
      assert.equal(await page.getByRole('button', { name: '削除' }).count(), 0);
      assert.equal(
        await page.locator('.status-badge--draft').count(),
        0,
        'no drafts for members',
      );
      await shootBoth(page, 'tabs-competitions-member');

      await go(page, '/tabs/admin', '権限がありません');
      await page.getByText('このページを表示する権限がありません').waitFor();
      await shootBoth(page, 'tabs-admin-forbidden');
    });
  });
});
