/**
 * Paying for a lesson online against the real server with
 * payments configured: STRIPE_API_BASE points it at the Stripe stand-in
 * (test-support/stripe-fake.ts), whose signed webhooks reach the server's
 * /api/payment/webhook, and the pages load a stand-in Stripe.js
 * (stripe-js-fake.ts) in place of js.stripe.com, whose iframe needs
 * Stripe's servers. An amateur reserves a lesson with a fee: the payment step
 * shows the breakdown and the hold's countdown, a declined card keeps the
 * page usable, a good card confirms the reservation (the page's confirm and
 * the webhook converge); 支払い履歴 and the printable 領収書 follow; the
 * pro's 売上明細 and the admin's CSV add the money up; cancelling in time
 * refunds. Runs with its own server and Stripe stand-in.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Payment, Schedule, Statement } from '@proam/contract';
import {
  startStripeFake,
  type StripeFake,
} from '../../../test-support/stripe-fake.ts';
import {
  apiCall,
  apiLogin,
  type ApiLogin,
  japanDate,
  loginAsAdmin,
  loginThroughForm,
  reserveOnProPage,
  SCREENSHOT_DIR,
  shootBoth,
  waitForSplash,
} from './helpers.ts';
import { assertNoSeriousAxe } from './a11y.ts';
import {
  CARD_DECLINED,
  CARD_OK,
  installStripeJsFake,
} from './stripe-js-fake.ts';
import { serverAndBrowser } from './suite.ts';

let fake: StripeFake;

const suite = serverAndBrowser({
  mail: true,
  env: async () => {
    fake = await startStripeFake();
    return {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
      STRIPE_API_BASE: fake.url,
    };
  },
});

// The stand-in's server would keep this test process alive.
after(async () => {
  await fake?.close();
});

const memberCall = <T>(who: ApiLogin, apiPath: string, body: unknown) =>
  apiCall<T>(suite.server.baseUrl, apiPath, body, who);

const login = async (page: Page, email: string, route: string, h1: string) => {
  await loginThroughForm(page, suite.server.baseUrl, email, { route, h1 });
  await waitForSplash(page);
};

const shoot = (page: Page, name: string) =>
  shootBoth(page, name, { settle: true, top: true, widths: [390, 1280] });

describe('online payment', () => {
  it('pay, decline, receipt, statement, CSV and refund', async () => {
    fake.setWebhook(`${suite.server.baseUrl}/api/payment/webhook`);
    const stamp = Date.now() % 100000;
    const place = `E2E決済テストCC ${stamp}`;
    // At least a day ahead, so the cancellation below is in time (the
    // deadline is the day before).
    const date = japanDate(2);
    const pro = await apiLogin(suite.server.baseUrl, 'pro1@example.jp');
    const lesson = await memberCall<Schedule>(pro, '/schedule/create', {
      date,
      startTime: '15:00',
      endTime: '17:30',
      area: '東京都',
      place,
      capacity: 2,
      fee: 12000,
    });

    const ama = await apiLogin(suite.server.baseUrl, 'ama1@example.jp');
    const mineId = { value: '' };
    const opened = await suite.openPage(390);
    const { page: a } = opened;
    await installStripeJsFake(opened.context, fake);
    try {
      await login(a, 'ama1@example.jp', '/tabs/schedule', 'スケジュール');
      await reserveOnProPage(a, suite.server.baseUrl, pro.user.id, place);

      // The payment step: the breakdown and the hold's countdown.
      await a.getByRole('heading', { level: 1, name: 'お支払い' }).waitFor();
      await a.getByText('12,000円').first().waitFor();
      await a.getByText('550円').first().waitFor();
      await a
        .getByText(/12,550円/)
        .first()
        .waitFor();
      await a.getByText(/お支払い期限まで\s*1[45]:\d\d/).waitFor();
      const card = a.getByLabel('カード番号');
      await card.waitFor({ timeout: 10_000 }).catch(async (e: unknown) => {
        await a.screenshot({ path: '/tmp/pay-debug.png', fullPage: true });
        console.log('ERRORS', opened.errors);
        throw e;
      });
      await shoot(a, 'payment-step');
      // The audit (npm run audit:web) cannot reach this page in the demo's
      // mode (no Stripe keys), so axe runs here.
      await assertNoSeriousAxe(a, 'payment step');

      // A declined card: the message in Japanese, the place let go (the
      // webhook's payment_failed), the page still usable.
      await card.fill(CARD_DECLINED);
      await a.getByRole('button', { name: '支払う' }).click();
      await a.getByText('カードが拒否されました。').waitFor();
      await shoot(a, 'payment-declined');
      // A second try holds the place again: a new hold, a new PaymentIntent.
      await a.getByRole('button', { name: '支払う' }).click();
      await a
        .getByText('カード情報をもう一度入力してください。', { exact: false })
        .waitFor();
      await a.getByLabel('カード番号').fill(CARD_OK);
      await a.getByRole('button', { name: '支払う' }).click();
      await a
        .getByRole('heading', { name: 'お支払いが完了しました' })
        .waitFor();
      await shoot(a, 'payment-done');
      assert.equal(fake.state.paymentIntents.size, 2);
      await fake.settled();
      const paid = await memberCall<Payment[]>(ama, '/payment/list', {});
      const mine = paid.filter((p) => p.scheduleId === lesson.id);
      assert.deepEqual(
        mine.map((p) => p.status),
        ['paid', 'failed'],
      );
      const payment = mine[0]!;
      mineId.value = payment.reservationId;
      assert.equal(payment.amount + payment.serviceFee, 12550);
      assert.match(payment.receiptNo ?? '', /^R\d{8}-[0-9A-Z]{8}$/);
      // The page's confirm and the webhook met: one confirmed place.
      const seen = (
        await memberCall<Schedule[]>(ama, '/schedule/getById', {
          userId: ama.user.id,
        })
      ).find((l) => l.id === lesson.id)!;
      assert.equal(seen.reservedCount, 1);
      assert.equal(seen.myReservation?.status, 'confirmed');
      assert.equal(seen.myReservation?.paymentStatus, 'paid');
      if (suite.mail)
        await suite.mail.waitFor(
          (m) =>
            m.text.includes('お支払いを受け付けました') &&
            m.text.includes(place),
        );

      // 領収書: the addressee typed, the amount with tax, the number; then as printed.
      await a.getByRole('link', { name: /領収書/ }).click();
      await a.getByLabel('宛名').fill('株式会社テストゴルフ');
      const receipt = a.locator('article.receipt');
      await receipt
        .getByText('株式会社テストゴルフ', { exact: false })
        .waitFor();
      await receipt.getByText(payment.receiptNo!, { exact: false }).waitFor();
      await receipt
        .getByText(/12,550/)
        .first()
        .waitFor();
      await receipt.getByText(/1,140/).first().waitFor();
      await shoot(a, 'receipt');
      await assertNoSeriousAxe(a, 'receipt');
      await a.emulateMedia({ media: 'print' });
      await a.screenshot({
        path: `${SCREENSHOT_DIR}/print-receipt.png`,
        fullPage: true,
      });
      assert.equal(
        await a.getByRole('button', { name: '印刷する' }).isVisible(),
        false,
        'the print shows the receipt only',
      );
      await a.emulateMedia({ media: 'screen' });

      // 支払い履歴 in the profile tab.
      await a.goto(`${suite.server.baseUrl}/#/tabs/profile`);
      const history = a.locator('li.payment-item', { hasText: place });
      await history.first().waitFor();
      await history.getByText('支払い済み').first().waitFor();
      await history.first().scrollIntoViewIfNeeded();
      await shoot(a, 'payment-history');
    } finally {
      await opened.context.close();
    }

    // A statement counts a lesson once it has started, so the lesson paid
    // above (still to come) is not in it yet: one of today that has started
    // is paid too, through the API and the Stripe stand-in.
    const heldPlace = `E2E開催済みCC ${stamp}`;
    const held = await memberCall<Schedule>(pro, '/schedule/create', {
      date: japanDate(0),
      startTime: '00:00',
      endTime: '00:05',
      area: '東京都',
      place: heldPlace,
      capacity: 2,
      fee: 12000,
    });
    const heldHold = await memberCall<{ clientSecret: string }>(
      ama,
      '/payment/start',
      { scheduleId: held.id },
    );
    await fake.succeed(heldHold.clientSecret.split('_secret_')[0]!);
    await fake.settled();

    // The pro's 売上明細 for this month: 12,000円, commission 1,200円, payout 10,800円.
    const month = japanDate(0).slice(0, 7);
    await suite.withPage(1280, async ({ page: p, context }) => {
      await installStripeJsFake(context, fake);
      await login(p, 'pro1@example.jp', '/tabs/schedule', 'スケジュール');
      await p.goto(`${suite.server.baseUrl}/#/sales?month=${month}`);
      const summary = p.getByLabel(/の集計$/);
      await summary.getByText('10,800円', { exact: false }).waitFor();
      await p.getByRole('row', { name: new RegExp(heldPlace) }).waitFor();
      assert.equal(
        await p.getByRole('row', { name: new RegExp(place) }).count(),
        0,
        'a lesson still to come is not counted yet',
      );
      await p
        .getByText('今月分は、開催済みのレッスンのみを集計しています。')
        .waitFor();
      await shoot(p, 'sales-statement');
    });
    const statement = await memberCall<Statement>(pro, '/payment/statement', {
      proId: pro.user.id,
      month,
    });
    assert.equal(statement.grossFee % 12000, 0);
    assert.equal(statement.commission, Math.floor(statement.grossFee / 10));

    // The admin's month as CSV: a BOM, Japanese headers, pro1's row.
    await suite.withPage(1280, async ({ page: p, context }) => {
      await installStripeJsFake(context, fake);
      await loginAsAdmin(p, suite.server.baseUrl);
      await p.goto(
        `${suite.server.baseUrl}/#/tabs/admin?section=sales&month=${month}`,
      );
      await p.getByRole('button', { name: /CSVダウンロード/ }).waitFor();
      await shoot(p, 'admin-sales');
      const [download] = await Promise.all([
        p.waitForEvent('download'),
        p.getByRole('button', { name: /CSVダウンロード/ }).click(),
      ]);
      const csv = await readFile((await download.path())!, 'utf8');
      assert.equal(csv.charCodeAt(0), 0xfeff, 'UTF-8 with BOM');
      assert.ok(csv.includes(pro.user.userName), csv);
      assert.ok(csv.includes(String(statement.payout)), csv);
    });

    // Cancelled in time: refunded in full at Stripe, 返金済み, and mailed.
    await memberCall<Schedule>(ama, '/schedule/cancel', { id: lesson.id });
    const deadline = Date.now() + 15_000;
    let refunded: Payment | undefined;
    while (Date.now() < deadline && !refunded) {
      refunded = (await memberCall<Payment[]>(ama, '/payment/list', {})).find(
        (p) => p.reservationId === mineId.value && p.status === 'refunded',
      );
      if (!refunded) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(refunded, 'refunded within 15 s');
    const refunds = [...fake.state.refunds.values()];
    assert.equal(refunds.length, 1);
    assert.equal(refunds[0]!.amount, 12550);
    if (suite.mail)
      await suite.mail.waitFor(
        (m) => m.text.includes('返金') && m.text.includes('12,550円'),
      );
  });
});
