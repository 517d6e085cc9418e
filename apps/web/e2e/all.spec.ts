import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
} from 'playwright-core';
import type { Competition, News } from '@proam/contract';
import { startServer, type TestServer } from './server.ts';

const screenshotDir = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'screenshots',
);

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
    path: '/tabs/schedule',
    h1: 'スケジュール',
    title: 'スケジュール | ProAm Connect',
  },
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

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let server: TestServer;
let browser: Browser;

const api = async <T>(p: string, body: unknown): Promise<T> => {
  const res = await fetch(`${server.baseUrl}/api${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { status: string; body: T };
  assert.equal(json.status, 'OK', `${p} answered ${JSON.stringify(json)}`);
  return json.body;
};

type Tracked = { page: Page; context: BrowserContext; errors: string[] };

/** A page that records console errors and uncaught exceptions. */
const openPage = async (width: number): Promise<Tracked> => {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    locale: 'ja-JP',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { page, context, errors };
};

/**
 * Opens a route. Moving between hash routes does not reload the document, so
 * wait for the new page's own heading rather than any h1.
 */
const visit = async (page: Page, route: string, h1?: string | RegExp) => {
  await page.goto(`${server.baseUrl}/#${route}`);
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

before(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: LAUNCH_ARGS,
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('public pages', () => {
  for (const width of [1280, 375]) {
    it(`render their heading, header and footer with no console errors at ${width}px`, async () => {
      const { page, context, errors } = await openPage(width);
      try {
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
          await page
            .locator('#splash')
            .waitFor({ state: 'detached', timeout: 5000 });
          await page.screenshot({
            path: path.join(screenshotDir, `${width}-${slug(r.path)}.png`),
            fullPage: true,
          });
        }
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  it('hides the splash by itself and leaves nothing covering the page', async () => {
    const { page, context } = await openPage(1280);
    try {
      await page.goto(`${server.baseUrl}/#/`);
      const splash = page.locator('#splash');
      assert.equal(await splash.getAttribute('aria-hidden'), 'true');
      await splash.waitFor({ state: 'detached', timeout: 4000 });
      await page.getByRole('link', { name: '会社概要' }).first().click();
      await page.getByRole('heading', { level: 1, name: '会社概要' }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('campaign details', () => {
  it('shows the banner for id 1 and the no-more-information message for 2 and 999', async () => {
    const { page, context, errors } = await openPage(1280);
    try {
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
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

describe('mobile menu at 375px', () => {
  it('opens and closes with the メニュー button and its links work', async () => {
    const { page, context, errors } = await openPage(375);
    try {
      await visit(page, '/');
      await page
        .locator('#splash')
        .waitFor({ state: 'detached', timeout: 5000 });
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
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
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
    const { page, context, errors } = await openPage(1280);
    try {
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
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('shows the latest news on the landing page and the news list, and opens an article', async () => {
    const news = await api<News[]>('/news/readAll', { page: 1, size: 3 });
    assert.ok(news.length > 0, 'the seed has news');
    const { page, context, errors } = await openPage(1280);
    try {
      await visit(page, '/');
      const landingNews = page.locator('section', {
        has: page.getByRole('heading', { name: '最新情報' }),
      });
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
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('lists upcoming competitions on the landing page', async () => {
    const competitions = await api<Competition[]>('/competition/read', {});
    const upcoming = competitions.find(
      (c) => c.status === 'open' || c.status === 'closed',
    );
    assert.ok(upcoming);
    const { page, context } = await openPage(1280);
    try {
      await visit(page, '/');
      await page.getByRole('heading', { name: upcoming.name }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('contact form', () => {
  it('shows validation errors, then sends and the server stores the message', async () => {
    const { page, context, errors } = await openPage(375);
    const outbox = server.dataDir ? path.join(server.dataDir, 'outbox') : null;
    const before = outbox ? safeList(outbox) : [];
    try {
      await visit(page, '/contact');
      await page
        .locator('#splash')
        .waitFor({ state: 'detached', timeout: 5000 });
      await page.getByRole('button', { name: '送信する' }).click();
      const name = page.getByRole('textbox', { name: /お名前/ });
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      await page.getByText('お名前を入力してください。').waitFor();
      await page.getByText('お問い合わせ種別を選択してください。').waitFor();
      assert.ok(
        await name.evaluate((el) => el === document.activeElement),
        'first invalid field has focus',
      );
      await page.screenshot({
        path: path.join(screenshotDir, '375-contact-errors.png'),
        fullPage: true,
      });

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
      await page.screenshot({
        path: path.join(screenshotDir, '375-contact-thanks.png'),
        fullPage: true,
      });

      if (outbox) {
        const deadline = Date.now() + 10_000;
        let found = false;
        while (!found && Date.now() < deadline) {
          const added = safeList(outbox).filter((f) => !before.includes(f));
          found = added.some((f) =>
            decodeMail(readFileSync(path.join(outbox, f), 'utf8')).includes(
              message,
            ),
          );
          if (!found) await new Promise((r) => setTimeout(r, 200));
        }
        assert.ok(found, `a new mail in ${outbox} carries the message`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Mail bodies may be quoted-printable or base64; look at every decoding. */
function decodeMail(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/g, (m) => {
    try {
      return Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8');
    } catch {
      return m;
    }
  });
  const b64 = raw
    .split(/\r?\n\r?\n/)
    .map((part) => {
      const compact = part.replace(/\s+/g, '');
      return /^[A-Za-z0-9+/=]{16,}$/.test(compact)
        ? Buffer.from(compact, 'base64').toString('utf8')
        : '';
    })
    .join('\n');
  return `${raw}\n${qp}\n${b64}`;
}
