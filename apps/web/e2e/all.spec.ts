import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Competition, News } from '@proam/contract';
import {
  apiCall,
  screenshot,
  shootBoth,
  submitLogin,
  waitForSplash,
  fillAmateurProfile,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const PUBLIC_ROUTES: {
  path: string;
  h1: string | RegExp;
  title: string | RegExp;
}[] = [
  { path: '/', h1: /プロと回る/, title: /^ProAm Connect \| / },
  {
    path: '/promenu',
    h1: 'プロ会員メニュー',
    title: 'プロ会員メニュー | ProAm Connect',
  },
  {
    path: '/amateurmenu',
    h1: 'アマチュア会員メニュー',
    title: 'アマチュア会員メニュー | ProAm Connect',
  },
  {
    path: '/event',
    h1: 'イベント日程・結果',
    title: 'イベント日程・結果 | ProAm Connect',
  },
  { path: '/about', h1: '会社概要', title: '会社概要 | ProAm Connect' },
  {
    path: '/contact',
    h1: 'お問い合わせ',
    title: 'お問い合わせ | ProAm Connect',
  },
  { path: '/info', h1: '最新情報', title: '最新情報 | ProAm Connect' },
  { path: '/qa', h1: 'よくある質問', title: 'よくある質問 | ProAm Connect' },
  {
    path: '/campaignDetails/1',
    h1: /キャンペーン/,
    title: 'キャンペーン詳細 | ProAm Connect',
  },
  { path: '/auth', h1: 'ログイン', title: 'ログイン | ProAm Connect' },
  {
    path: '/checkin/abc',
    h1: 'チェックイン',
    title: 'チェックイン | ProAm Connect',
  },
  {
    path: '/no/such/page',
    h1: 'ページが見つかりません',
    title: 'ページが見つかりません | ProAm Connect',
  },
];

/** With a mail peer: `suite.mail` receives the server's mail (null with E2E_BASE_URL). */
const suite = serverAndBrowser({ mail: true });

const api = <T>(p: string, body: unknown) =>
  apiCall<T>(suite.server.baseUrl, p, body);

/**
 * Opens a route. Moving between hash routes does not reload the document, so
 * wait for the new page's own heading rather than any h1.
 */
const visit = async (page: Page, route: string, h1?: string | RegExp) => {
  await page.goto(`${suite.server.baseUrl}/#${route}`);
  const expected = h1 ?? PUBLIC_ROUTES.find((r) => r.path === route)?.h1;
  if (expected) {
    await page
      .getByRole('heading', { level: 1, name: expected, includeHidden: true })
      .waitFor({ state: 'attached' });
  } else {
    await page.waitForFunction((r) => window.location.hash === `#${r}`, route);
    await page.locator('h1').first().waitFor({ state: 'attached' });
  }
  // Let the page's API calls settle before judging it.
  await page.waitForLoadState('networkidle');
};

const slug = (route: string) =>
  route.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'landing';

describe('public pages', () => {
  for (const width of [1280, 375]) {
    it(`render their heading, header and footer with no console errors at ${width}px`, async () => {
      await suite.withPage(width, async ({ page }) => {
        for (const r of PUBLIC_ROUTES) {
          await visit(page, r.path);
          const h1 = page.locator('h1');
          assert.equal(await h1.count(), 1, `${r.path}: one h1`);
          const text = (await h1.textContent()) ?? '';
          if (typeof r.h1 === 'string') assert.equal(text.trim(), r.h1, r.path);
          else assert.match(text, r.h1, r.path);
          if (typeof r.title === 'string')
            assert.equal(await page.title(), r.title);
          else assert.match(await page.title(), r.title);
          assert.ok(
            await page.getByRole('banner').isVisible(),
            `${r.path}: header`,
          );
          assert.ok(
            await page.getByRole('contentinfo').isVisible(),
            `${r.path}: footer`,
          );
          assert.ok(
            await page.getByRole('main').isVisible(),
            `${r.path}: main`,
          );
          const footer =
            (await page.getByRole('contentinfo').textContent()) ?? '';
          assert.match(
            footer,
            new RegExp(`© ${new Date().getFullYear()} \\S+`),
            `${r.path}: copyright`,
          );
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          assert.ok(
            overflow <= 0,
            `${r.path} overflows horizontally by ${overflow}px at ${width}px`,
          );
          // Wait out the 1500 ms splash so screenshots show the page itself.
          await waitForSplash(page);
          await screenshot(page, `${width}-${slug(r.path)}`);
        }
      });
    });
  }

  it('hides the splash by itself and leaves nothing covering the page', async () => {
    await suite.withPage(1280, async ({ page }) => {
      await page.goto(`${suite.server.baseUrl}/#/`);
      const splash = page.locator('#splash');
      assert.equal(await splash.getAttribute('aria-hidden'), 'true');
      await splash.waitFor({ state: 'detached', timeout: 4000 });
      await page.getByRole('link', { name: '会社概要' }).first().click();
      await page.getByRole('heading', { level: 1, name: '会社概要' }).waitFor();
    });
  });
});

describe('campaign details', () => {
  it('shows the banner for id 1 and the no-more-information message for 2 and 999', async () => {
    await suite.withPage(1280, async ({ page }) => {
      await visit(page, '/campaignDetails/1');
      const banner = page.getByRole('img', {
        name: /はじめてのラウンドレッスン応援キャンペーン/,
      });
      await banner.waitFor();
      assert.ok(
        await banner.evaluate(
          (img: HTMLImageElement) => img.complete && img.naturalWidth > 0,
        ),
        'banner loaded',
      );
      const crumbs = page
        .getByRole('navigation', { name: 'パンくずリスト' })
        .getByRole('listitem');
      assert.deepEqual(await crumbs.allTextContents(), [
        'トップページ',
        'キャンペーン詳細',
      ]);
      assert.equal(
        await page.locator('.title-block').count(),
        0,
        'no title block',
      );
      for (const id of ['2', '999']) {
        await visit(page, `/campaignDetails/${id}`, 'キャンペーン詳細');
        await page.getByText('現在、これ以上の情報はございません。').waitFor();
        assert.equal(await page.getByRole('main').getByRole('img').count(), 0);
      }
    });
  });
});

describe('mobile menu at 375px', () => {
  it('opens and closes with the メニュー button and its links work', async () => {
    await suite.withPage(375, async ({ page }) => {
      await visit(page, '/');
      await waitForSplash(page);
      const toggle = page.getByRole('button', { name: 'メニュー' });
      const nav = page.getByRole('navigation', { name: 'メインメニュー' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await nav.isVisible(), false, 'menu starts closed');
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.ok(await nav.isVisible());
      for (const name of [
        'プロ会員メニュー',
        'アマチュア会員メニュー',
        'イベント日程・結果',
        '会社概要',
        '最新情報',
        'お問い合わせ',
      ]) {
        assert.ok(await nav.getByRole('link', { name }).isVisible(), name);
      }
      await page.keyboard.press('Escape');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await nav.isVisible(), false, 'Escape closes');
      await toggle.click();
      await nav.getByRole('link', { name: 'イベント日程・結果' }).click();
      await page
        .getByRole('heading', { level: 1, name: 'イベント日程・結果' })
        .waitFor();
      assert.equal(
        await toggle.getAttribute('aria-expanded'),
        'false',
        'closes on navigation',
      );
      assert.equal(await nav.isVisible(), false);
    });
  });
});

describe('data from the API', () => {
  it('shows upcoming competitions and finished ones with results on the event page', async () => {
    const competitions = await api<Competition[]>('/competition/read', {});
    const upcoming = competitions.find((c) => c.status === 'open');
    const finished = competitions.find(
      (c) => c.status === 'finished' && c.results.length > 0,
    );
    assert.ok(
      upcoming && finished,
      'the seed has an open and a finished competition with results',
    );
    await suite.withPage(1280, async ({ page }) => {
      await visit(page, '/event');
      const main = page.getByRole('main');
      await main.getByRole('heading', { name: upcoming.name }).waitFor();
      const card = main.locator('article', {
        has: page.getByRole('heading', { name: upcoming.name }),
      });
      assert.match((await card.textContent()) ?? '', /エントリー受付中/);
      assert.match(
        (await card.textContent()) ?? '',
        new RegExp(upcoming.venue),
      );
      await main.getByRole('heading', { name: finished.name }).waitFor();
      const block = main.locator('article', {
        has: page.getByRole('heading', { name: finished.name }),
      });
      const table = block.getByRole('table');
      const first = [...finished.results].sort((a, b) => a.rank - b.rank)[0];
      assert.ok(first);
      const row = table.getByRole('row', {
        name: new RegExp(first.playerName),
      });
      assert.match(
        (await row.textContent()) ?? '',
        new RegExp(`${first.rank}位`),
      );
      if (first.score !== undefined)
        assert.match(
          (await row.textContent()) ?? '',
          new RegExp(String(first.score)),
        );
    });
  });

  it('shows the latest news on the landing page and the news list, and opens an article', async () => {
    const news = await api<News[]>('/news/readAll', { page: 1, size: 3 });
    assert.ok(news.length > 0, 'the seed has news');
    await suite.withPage(1280, async ({ page }) => {
      await visit(page, '/');
      const landingNews = page.locator('section', {
        has: page.getByRole('heading', { name: '最新情報' }),
      });
      // The static landing page loads the app, and with it the news, as the
      // section nears the viewport (boot/static-landing.ts), as for a reader.
      await landingNews.scrollIntoViewIfNeeded();
      for (const n of news)
        await landingNews
          .getByRole('link', { name: new RegExp(n.title) })
          .waitFor();
      await visit(page, '/info');
      for (const n of news)
        await page
          .getByRole('main')
          .getByRole('link', { name: new RegExp(n.title) })
          .waitFor();
      const first = news[0];
      assert.ok(first);
      await page
        .getByRole('main')
        .getByRole('link', { name: new RegExp(first.title) })
        .click();
      await page
        .getByRole('heading', { level: 1, name: first.title })
        .waitFor();
      await visit(page, '/info/doesnotexist', '記事が見つかりません');
      await page.getByText('お探しの記事は見つかりませんでした。').waitFor();
    });
  });

  it('lists upcoming competitions on the landing page', async () => {
    const competitions = await api<Competition[]>('/competition/read', {});
    const upcoming = competitions.find(
      (c) => c.status === 'open' || c.status === 'closed',
    );
    assert.ok(upcoming);
    await suite.withPage(1280, async ({ page }) => {
      await visit(page, '/');
      // Loaded as the section nears the viewport (boot/static-landing.ts).
      await page
        .getByRole('heading', { name: '開催予定の大会' })
        .scrollIntoViewIfNeeded();
      await page.getByRole('heading', { name: upcoming.name }).waitFor();
    });
  });
});

describe('contact form', () => {
  it('shows validation errors, then sends and the server stores the message', async () => {
    await suite.withPage(375, async ({ page }) => {
      await visit(page, '/contact');
      await waitForSplash(page);
      await page.getByRole('button', { name: '送信する' }).click();
      const name = page.getByRole('textbox', { name: /お名前/ });
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      await page.getByText('お名前を入力してください。').waitFor();
      await page.getByText('お問い合わせ種別を選択してください。').waitFor();
      assert.ok(
        await name.evaluate((el) => el === document.activeElement),
        'first invalid field has focus',
      );
      await screenshot(page, '375-contact-errors');

      const message = `E2Eテストからのお問い合わせです。整理番号 ${Date.now()}`;
      await name.fill('テスト 太郎');
      await page
        .getByRole('textbox', { name: /メールアドレス/ })
        .fill('e2e@example.jp');
      await page
        .getByRole('combobox', { name: /お問い合わせ種別/ })
        .selectOption('サービスについて');
      await page
        .getByRole('textbox', { name: /お問い合わせ内容/ })
        .fill(message);
      await page.getByRole('button', { name: '送信する' }).click();
      await page
        .getByRole('heading', { name: 'お問い合わせありがとうございました' })
        .waitFor();
      await screenshot(page, '375-contact-thanks');

      // The company's copy goes out through SMTP to the mail peer.
      if (suite.mail) await suite.mail.waitFor((m) => m.text.includes(message));
    });
  });
});

/**
 * Console errors the browser prints for answers the test provokes on purpose:
 * exactly "Failed to load resource: … 401" for the given API paths.
 */
const expected401 = (paths: string[]) => (e: string) =>
  paths.some(
    (p) =>
      e ===
      `Failed to load resource: the server responded with a status of 401 (Unauthorized) @ ${suite.server.baseUrl}/api${p}`,
  );

const storedRefreshToken = (page: Page) =>
  page.evaluate(() => localStorage.getItem('refresh_token'));

const expectHash = (page: Page, hash: string) =>
  page.waitForFunction((h) => window.location.hash === h, hash);

describe('accounts', () => {
  it('registers a new member with the mailed code, logs out, resets the password and logs in again', async (t) => {
    if (!suite.mail) {
      t.skip('needs the mail peer (not available with E2E_BASE_URL)');
      return;
    }
    const peer = suite.mail;
    const email = `e2e-${Date.now()}@example.jp`;
    await suite.withPage(375, async ({ page }) => {
      await visit(page, '/auth/register', '新規会員登録');
      await waitForSplash(page);
      const steps = page.getByRole('list', { name: '手続きの流れ' });
      assert.match(
        (await steps.locator('[aria-current="step"]').textContent()) ?? '',
        /メールアドレス/,
      );
      // Step 1: an empty submit marks the field, then the code goes out.
      await page.getByRole('button', { name: '認証コードを送信' }).click();
      const emailBox = page.getByRole('textbox', { name: /メールアドレス/ });
      assert.equal(await emailBox.getAttribute('aria-invalid'), 'true');
      await shootBoth(page, 'register-1-errors');
      await emailBox.fill(email);
      await shootBoth(page, 'register-1');
      await page.getByRole('button', { name: '認証コードを送信' }).click();

      // Step 2: the 6-digit code from the real mail.
      const codeBox = page.getByRole('textbox', { name: /認証コード/ });
      await codeBox.waitFor();
      assert.equal(await codeBox.getAttribute('inputmode'), 'numeric');
      assert.equal(await codeBox.getAttribute('autocomplete'), 'one-time-code');
      const codeMail = await peer.waitFor(
        (m) => m.to.includes(email) && /認証コード: \d{6}\b/.test(m.text),
      );
      const code = /認証コード: (\d{6})\b/.exec(codeMail.text)?.[1];
      assert.ok(code, 'the registration mail carries a 6-digit code');
      await shootBoth(page, 'register-2');
      await codeBox.fill(code);
      await page.getByRole('button', { name: '次へ' }).click();

      // Step 3: profile and password.
      const name = page.getByRole('textbox', { name: /^氏名/ });
      await name.waitFor();
      assert.ok(
        await name.evaluate((el) => el === document.activeElement),
        'the profile step starts at 氏名',
      );
      await page.getByRole('button', { name: '登録する' }).click();
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      await shootBoth(page, 'register-3-errors');
      await fillAmateurProfile(page, {
        name: '江藤 一郎',
        kana: 'えとう いちろう',
        password: 'fairway-birdie-2026',
      });
      await page
        .getByRole('combobox', { name: /地域/ })
        .selectOption('神奈川県');
      await page.getByRole('checkbox', { name: /同意する/ }).check();
      await shootBoth(page, 'register-3');
      await page.getByRole('button', { name: '登録する' }).click();

      // Logged in, in the member area.
      await page
        .getByRole('heading', { level: 1, name: 'スケジュール' })
        .waitFor();
      await expectHash(page, '#/tabs/schedule');
      assert.ok(await storedRefreshToken(page), 'refresh_token stored');
      await page.getByRole('link', { name: 'マイページ' }).waitFor();
      const tabs = page.getByRole('navigation', { name: '会員メニュー' });
      await tabs.getByRole('link', { name: 'プロフィール' }).click();
      await page.getByRole('heading', { name: /江藤 一郎/ }).waitFor();
      await page.getByText('アマチュア会員', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'ログアウト' }).click();
      await page.getByRole('heading', { level: 1, name: 'ログイン' }).waitFor();
      assert.equal(await storedRefreshToken(page), null);

      // Password reset with the 8-digit code.
      await page.getByRole('link', { name: 'パスワードをお忘れの方' }).click();
      await page
        .getByRole('heading', { level: 1, name: 'パスワード再設定' })
        .waitFor();
      await page.getByRole('textbox', { name: /メールアドレス/ }).fill(email);
      await shootBoth(page, 'reset-1');
      await page.getByRole('button', { name: '認証コードを送信' }).click();
      const resetCodeBox = page.getByRole('textbox', { name: /認証コード/ });
      await resetCodeBox.waitFor();
      const resetMail = await peer.waitFor(
        (m) => m.to.includes(email) && /認証コード: \d{8}\b/.test(m.text),
      );
      const resetCode = /認証コード: (\d{8})\b/.exec(resetMail.text)?.[1];
      assert.ok(resetCode, 'the reset mail carries an 8-digit code');
      await resetCodeBox.fill(resetCode);
      await page.locator('input[name="password"]').fill('new-green-2026');
      await page.locator('input[name="passwordConfirm"]').fill('new-green-202');
      await page.getByRole('button', { name: 'パスワードを変更する' }).click();
      await page.getByText('パスワードが一致しません。').waitFor();
      await shootBoth(page, 'reset-2');
      await page
        .locator('input[name="passwordConfirm"]')
        .fill('new-green-2026');
      await page.getByRole('button', { name: 'パスワードを変更する' }).click();
      await page
        .getByRole('heading', { name: 'パスワードを変更しました' })
        .waitFor();
      await shootBoth(page, 'reset-done');
      await page.getByRole('link', { name: 'ログイン画面へ' }).click();
      await submitLogin(page, email, 'new-green-2026');
      await page
        .getByRole('heading', { level: 1, name: 'スケジュール' })
        .waitFor();
    });
  });

  it('logs in as ama1, stays logged in across a reload with a rotated refresh token, and logs out', async () => {
    await suite.withPage(1280, async ({ page }) => {
      await visit(page, '/auth', 'ログイン');
      await waitForSplash(page);
      await page.getByRole('link', { name: 'ログイン', exact: true }).waitFor();
      await shootBoth(page, 'login');
      await submitLogin(page, 'ama1@example.jp');
      await page
        .getByRole('heading', { level: 1, name: 'スケジュール' })
        .waitFor();
      await expectHash(page, '#/tabs/schedule');
      const first = await storedRefreshToken(page);
      assert.ok(first);
      assert.equal(
        await page.evaluate(() => Object.keys(localStorage).sort().join(',')),
        'refresh_token',
        'only the refresh token is stored',
      );
      const tabs = page.getByRole('navigation', { name: '会員メニュー' });
      assert.deepEqual(await tabs.getByRole('link').allTextContents(), [
        'スケジュール',
        'いいね',
        'チャット',
        '大会',
        'プロフィール',
      ]);
      assert.equal(
        await tabs
          .getByRole('link', { name: 'スケジュール' })
          .getAttribute('aria-current'),
        'page',
      );
      for (const box of await tabs
        .getByRole('link')
        .evaluateAll((links) =>
          links.map((l) => l.getBoundingClientRect().height),
        ))
        assert.ok(box >= 44, `tab target ${box}px high`);
      await shootBoth(page, 'tabs-schedule');

      // The handshake restores the login and rotates the refresh token.
      await page.reload();
      await page
        .getByRole('heading', { level: 1, name: 'スケジュール' })
        .waitFor();
      await waitForSplash(page);
      await page.waitForFunction((old) => {
        const now = localStorage.getItem('refresh_token');
        return now !== null && now !== old;
      }, first);
      await expectHash(page, '#/tabs/schedule');

      const profileTab = tabs.getByRole('link', { name: 'プロフィール' });
      await profileTab.click();
      await page.getByRole('heading', { name: /山本 拓也/ }).waitFor();
      assert.equal(await profileTab.getAttribute('aria-current'), 'page');
      await shootBoth(page, 'tabs-profile');
      await page.getByRole('button', { name: 'ログアウト' }).click();
      await page.getByRole('heading', { level: 1, name: 'ログイン' }).waitFor();
      await expectHash(page, '#/auth');
      assert.equal(await storedRefreshToken(page), null);
      await page.getByRole('link', { name: 'ログイン', exact: true }).waitFor();
    });
  });

  it('sends a logged-out visitor of #/tabs/likes to the login and back after it', async () => {
    await suite.withPage(375, async ({ page }) => {
      await page.goto(`${suite.server.baseUrl}/#/tabs/likes`);
      await page.getByRole('heading', { level: 1, name: 'ログイン' }).waitFor();
      await expectHash(page, '#/auth');
      await submitLogin(page, 'pro1@example.jp');
      await page.getByRole('heading', { level: 1, name: 'いいね' }).waitFor();
      await expectHash(page, '#/tabs/likes');
      const tabBar = page.getByRole('navigation', { name: '会員メニュー' });
      const box = await tabBar.boundingBox();
      assert.ok(
        box && Math.abs(box.y + box.height - 900) <= 1,
        'the tab bar sits at the bottom on a phone',
      );
    });
  });

  it('shows the re-login alert for a garbled stored refresh token, and its OK goes to #/auth', async () => {
    await suite.withPage(
      1280,
      async ({ page }) => {
        await visit(page, '/about');
        await page.evaluate(() =>
          localStorage.setItem('refresh_token', 'garbled-%%%-token'),
        );
        await page.reload();
        const dialog = page.getByRole('alertdialog');
        await dialog.waitFor();
        await dialog
          .getByText(
            '一定期間ご利用がなかったため、ログインの有効期限が切れました。再度ログインしてください。',
          )
          .waitFor();
        assert.equal(await storedRefreshToken(page), null);
        await dialog.getByRole('button', { name: 'OK' }).click();
        await expectHash(page, '#/auth');
        await page
          .getByRole('heading', { level: 1, name: 'ログイン' })
          .waitFor();
        assert.equal(await dialog.isVisible(), false);
      },
      { allow: expected401(['/auth/handshake']) },
    );
  });

  it('shows the エラー dialog for a wrong password and keeps what was typed', async () => {
    await suite.withPage(
      375,
      async ({ page }) => {
        await visit(page, '/auth', 'ログイン');
        await waitForSplash(page);
        await submitLogin(page, 'pro1@example.jp', 'not-the-password');
        const dialog = page.getByRole('alertdialog');
        await dialog.getByRole('heading', { name: 'エラー' }).waitFor();
        await dialog.getByText('InvalidCredentials', { exact: true }).waitFor();
        await dialog
          .getByText('メールアドレスまたはパスワードが正しくありません。')
          .waitFor();
        await screenshot(page, '375-login-error', { fullPage: false });
        await dialog.getByRole('button', { name: 'OK' }).click();
        await dialog.waitFor({ state: 'hidden' });
        assert.equal(
          await page
            .getByRole('textbox', { name: /メールアドレス/ })
            .inputValue(),
          'pro1@example.jp',
        );
        assert.equal(
          await page.locator('input[name="password"]').inputValue(),
          'not-the-password',
        );
        await expectHash(page, '#/auth');
      },
      { allow: expected401(['/auth/login']) },
    );
  });
});
