/**
 * The admin's side of trust and safety against the real server and
 * its demo data: the 運営ダッシュボード opens first with its charts (chart.js,
 * loaded only here), tables and CSV; 会員管理 verifies pro6 (the demo's
 * unverified pro), suspends an amateur with a reason (who then cannot log in)
 * and lifts it; 通報 resolves a member's report. axe runs on each section,
 * and each is shot at 375 and 1280 px. Runs with its own server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { assertNoSeriousAxe } from './a11y.ts';
import {
  apiLogin,
  CLIENT_AUTH,
  DEMO_PASSWORD,
  loginAsAdmin,
  loginThroughForm,
  settle,
  shootBoth,
  statusSays,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

const SUSPENDED = 'ama5@example.jp';
const REASON = 'E2E：迷惑行為の報告が続いたため';

/** What /auth/login answers for a member (status and code). */
const tryLogin = async (mail: string) => {
  const res = await fetch(`${suite.server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: CLIENT_AUTH },
    body: JSON.stringify({ mail, password: DEMO_PASSWORD }),
  });
  const json = (await res.json()) as { status: string; code?: string };
  return { http: res.status, status: json.status, code: json.code };
};

describe('admin: dashboard, members and reports (Chromium)', () => {
  it('shows the dashboard first, verifies pro6, suspends and restores a member, resolves a report', async () => {
    const { baseUrl } = suite.server;
    // A report to resolve: ama1 reports pro2's profile.
    const ama1 = await apiLogin(baseUrl, 'ama1@example.jp');
    const pro2 = await apiLogin(baseUrl, 'pro2@example.jp');
    const reported = await fetch(`${baseUrl}/api/report/create`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${ama1.token}`,
      },
      body: JSON.stringify({
        targetType: 'user',
        targetId: pro2.user.id,
        reason: 'E2E：プロフィールに外部サイトへの勧誘があります',
      }),
    });
    assert.equal(reported.status, 200);
    // And a review by someone else on pro1's profile (its text is shown).
    const pro1 = await apiLogin(baseUrl, 'pro1@example.jp');
    const call = async <T>(token: string, apiPath: string, body: unknown) => {
      const res = await fetch(`${baseUrl}/api${apiPath}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200, apiPath);
      return ((await res.json()) as { body: T }).body;
    };
    const reviews = await call<{ id: string; userId: string }[]>(
      ama1.token,
      '/review/list',
      { proId: pro1.user.id },
    );
    const other = reviews.find((r) => r.userId !== ama1.user.id);
    assert.ok(other, 'a review by another amateur');
    await call(ama1.token, '/report/create', {
      targetType: 'review',
      targetId: other.id,
      reason: 'E2E：口コミに個人名が書かれています',
    });

    const chartRequests: string[] = [];
    await suite.withPage(
      1280,
      async ({ page }) => {
        page.on('request', (r) => {
          if (/\/assets\/chart[-.]/.test(r.url())) chartRequests.push(r.url());
        });
        await loginAsAdmin(page, baseUrl);
        await settle(page);

        // 1. The dashboard is the first, selected section.
        const firstTab = page.getByRole('tab').first();
        assert.equal(await firstTab.textContent(), 'ダッシュボード');
        assert.equal(await firstTab.getAttribute('aria-selected'), 'true');
        const members = page.getByRole('region', { name: '新規会員' });
        await members.waitFor();
        // chart.js drew on the canvas (it sets the canvas size), loaded only now.
        const canvas = members.getByRole('img', {
          name: /新規会員の週ごとの推移/,
        });
        await page.waitForFunction(() =>
          [...document.querySelectorAll('.dash-card__chart canvas')].every(
            (c) =>
              (c as HTMLCanvasElement).width > 0 && c.hasAttribute('style'),
          ),
        );
        assert.ok(await canvas.isVisible());
        assert.ok(
          chartRequests.length > 0,
          'chart.js loaded for the dashboard',
        );
        // The month's money is one click away (売上・精算).
        await page
          .getByText(/プロごとの月別の売上・手数料とお支払い予定額は/)
          .waitFor();
        // The table alternative opens, with 12 weeks.
        await members.getByText('表で見る').click();
        assert.equal(
          await members.getByRole('table').locator('tbody tr').count(),
          12,
        );
        // The CSV: BOM, Japanese headers, 12 weeks.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page
            .getByRole('button', { name: '全項目をCSVでダウンロード' })
            .click(),
        ]);
        const bytes = readFileSync((await download.path())!);
        assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
        const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
        assert.equal(lines[0], '週,新規会員,予約,キャンセル,口コミ,チャット');
        assert.equal(lines.length, 13);
        await assertNoSeriousAxe(page, 'dashboard');
        await shootBoth(page, 'tabs-admin-dashboard', { top: true });

        // 2. 会員管理: pro6 is 確認中; verify it.
        await page.getByRole('tab', { name: '会員管理' }).click();
        const search = page.getByRole('searchbox', {
          name: '名前・メールアドレス',
        });
        await search.fill('pro6@example.jp');
        await page.getByRole('button', { name: '検索する' }).click();
        const table = page.getByRole('table', { name: /会員一覧/ });
        const pro6 = table
          .getByRole('row')
          .filter({ hasText: 'pro6@example.jp' });
        await pro6.getByText('確認中').waitFor();
        await pro6.getByRole('button', { name: /^確認済みにする/ }).click();
        await statusSays(page, 'を確認済みにしました');
        await pro6.getByText('確認済み', { exact: true }).waitFor();

        // Suspend ama5 with a reason: the reason is required.
        await search.fill(SUSPENDED);
        await page.getByRole('button', { name: '検索する' }).click();
        const ama5 = table.getByRole('row').filter({ hasText: SUSPENDED });
        await ama5.getByText('利用中').waitFor();
        await ama5.getByRole('button', { name: /^利用停止/ }).click();
        const dialog = page.getByRole('dialog', { name: '会員の利用停止' });
        await dialog.getByRole('button', { name: '利用停止にする' }).click();
        await dialog.getByText('利用停止の理由を入力してください。').waitFor();
        await assertNoSeriousAxe(page, 'suspend dialog');
        await dialog
          .getByRole('textbox', { name: /利用停止の理由/ })
          .fill(REASON);
        await dialog.getByRole('button', { name: '利用停止にする' }).click();
        await statusSays(page, 'を利用停止にしました');
        await ama5.getByText('利用停止中').waitFor();
        await ama5.getByText(`理由：${REASON}`).waitFor();
        assert.deepEqual(await tryLogin(SUSPENDED), {
          http: 401,
          status: 'NG',
          code: 'InvalidCredentials',
        });

        await search.fill('');
        await page.getByRole('button', { name: '検索する' }).click();
        await table.getByRole('row').nth(5).waitFor();
        await assertNoSeriousAxe(page, 'members');
        await shootBoth(page, 'tabs-admin-members', { top: true });

        // Lift the suspension: ama5 can log in again.
        await search.fill(SUSPENDED);
        await page.getByRole('button', { name: '検索する' }).click();
        await ama5.getByRole('button', { name: /^停止を解除/ }).click();
        await page
          .getByRole('dialog', { name: '利用停止の解除' })
          .getByRole('button', { name: '停止を解除する' })
          .click();
        await statusSays(page, 'の利用停止を解除しました');
        await ama5.getByText('利用中').waitFor();
        assert.equal((await tryLogin(SUSPENDED)).status, 'OK');

        // 3. 通報: ama1's report, with who and what; resolve it with a note.
        await page.getByRole('tab', { name: '通報' }).click();
        const report = page.getByRole('listitem').filter({
          hasText: 'E2E：プロフィールに外部サイトへの勧誘があります',
        });
        await report.getByText(ama1.user.userName).waitFor();
        await report.getByText(pro2.user.userName).waitFor();
        await assertNoSeriousAxe(page, 'reports');
        await shootBoth(page, 'tabs-admin-reports', { top: true });
        await report.getByRole('button', { name: '対応済みにする' }).click();
        const resolve = page.getByRole('dialog', {
          name: '通報を対応済みにする',
        });
        await resolve
          .getByRole('textbox', { name: /対応内容/ })
          .fill('プロフィールを確認し、本人に修正を依頼しました');
        await resolve.getByRole('button', { name: '対応済みにする' }).click();
        await statusSays(page, '通報を対応済みにしました');
        await report.waitFor({ state: 'detached' });
        await page
          .getByRole('listitem')
          .filter({ hasText: 'E2E：口コミに個人名が書かれています' })
          .getByText(/評価 \d \/ 5/)
          .waitFor();
        await page.getByRole('radio', { name: '対応済み' }).check();
        await page
          .getByRole('listitem')
          .filter({ hasText: 'プロフィールを確認し、本人に修正を依頼しました' })
          .waitFor();
      },
      { allow: (e) => /status of 40[13]/.test(e) },
    );
  });

  it('does not load chart.js on the landing page or a member tab', async () => {
    const { page, context } = await suite.openPage(375);
    const chart: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/chart[-.]/.test(r.url()) && !r.serviceWorker())
        chart.push(r.url());
    });
    try {
      await page.goto(`${suite.server.baseUrl}/`);
      await settle(page);
      await loginThroughForm(page, suite.server.baseUrl, 'ama1@example.jp', {
        route: '/tabs/schedule',
      });
      await settle(page);
      assert.deepEqual(chart, []);
    } finally {
      await context.close();
    }
  });
});
