import type { ReactNode } from 'react';
import type { PaymentStart } from '@proam/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runtimeConfig } from '@/config/env';
import { storeLoggedInAs } from '@/testing/auth';
import {
  createLesson,
  createMyReservation,
  createPro,
} from '@/testing/factories';
import { setNow } from '@/testing/lessons';
import { apiCalls, ng, ok, pathsCalled, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { PAY_AT_COURSE } from '@/lib/payment-mode';
import type { PaymentAttempt } from '../payment-elements';
import { PaymentPage } from '../components/payment-page';
import { createPayment } from './payment-factories';

// Stripe is replaced at the payment feature's own boundary: the module that
// wraps Stripe.js (payment-elements) and the loader. Nothing of Stripe runs.
const stripe = vi.hoisted(() => ({
  confirm: vi.fn<(returnUrl: string) => Promise<PaymentAttempt>>(),
  options: [] as unknown[],
}));
vi.mock('../payment-elements', () => ({
  PaymentProvider: ({
    options,
    children,
  }: {
    options?: unknown;
    children: ReactNode;
  }) => {
    stripe.options.push(options);
    return <div data-testid="stripe-elements">{children}</div>;
  },
  PaymentSheet: () => (
    <label>
      カード番号
      <input name="card" />
    </label>
  ),
  usePaymentConfirmation: () => ({ ready: true, confirm: stripe.confirm }),
}));
vi.mock('../stripe-loader', () => ({
  startPayments: () => ({
    stripe: Promise.resolve({}),
    components: Promise.resolve(null),
  }),
}));

const NOW = '2026-11-20T00:00:00.000Z';
const savedKey = runtimeConfig.stripePublishableKey;
beforeEach(() => {
  runtimeConfig.stripePublishableKey = 'pk_test_page';
  setNow(NOW);
  stripe.confirm.mockReset();
  stripe.options.length = 0;
});
afterEach(() => {
  runtimeConfig.stripePublishableKey = savedKey;
  vi.useRealTimers();
});

const hold = (overrides: Partial<PaymentStart> = {}): PaymentStart => ({
  reservationId: 'PAY1',
  clientSecret: 'pi_1_secret_a',
  amount: 12000,
  serviceFee: 550,
  holdExpiresAt: '2026-11-20T00:14:59.000Z',
  ...overrides,
});

const LESSON = createLesson('S1', {
  fee: 12000,
  place: '府中カントリークラブ',
  myReservation: createMyReservation({
    status: 'pending',
    amount: 12000,
    serviceFee: 550,
    paymentStatus: 'requires_payment',
    holdExpiresAt: '2026-11-20T00:14:59.000Z',
  }),
});

const PAID = createPayment('PAY1', {
  scheduleId: 'S1',
  proId: 'pro-1',
  proName: '山田 太郎',
  date: '2026-11-28',
  startTime: '09:00',
  place: '府中カントリークラブ',
  receiptNo: 'R20261120-PAY1',
});

const lessonRoutes = {
  '/schedule/getById': () => ok([LESSON]),
  '/user/getByIdList': () =>
    ok([createPro('pro-1', { userName: '山田 太郎' })]),
};

/** The API of the page: /payment/start holds PAY1 and the lesson is S1; `more` adds or replaces routes. */
const servePayment = (more: Parameters<typeof serveApi>[0] = {}) =>
  serveApi({ '/payment/start': () => ok(hold()), ...lessonRoutes, ...more });

const renderPage = (
  route = '/payment/S1',
  type: 'amature' | 'pro' = 'amature',
) => {
  // Logged in for a day: the expiry test moves the clock past the hold.
  const store = storeLoggedInAs({ type }, { expiresIn: 86_400 });
  return renderWithProviders(<PaymentPage />, {
    store,
    route,
    path: '/payment/:scheduleId',
  });
};

/** A route whose first call gets `first` and every later call `later` (a new hold, a retry that succeeds). */
const firstThen = (first: () => Response, later: () => Response) => {
  let calls = 0;
  return () => (++calls === 1 ? first() : later());
};

/** /payment/start holding PAY1, then a new place (PAY2, its own PaymentIntent) on the next call. */
const holdThenNewHold = (over: Partial<PaymentStart> = {}) =>
  firstThen(
    () => ok(hold()),
    () =>
      ok(
        hold({
          reservationId: 'PAY2',
          clientSecret: 'pi_2_secret_b',
          ...over,
        }),
      ),
  );

const payButton = () => screen.findByRole('button', { name: '支払う' });

describe('the payment step', () => {
  it('holds a place and shows the lesson, the amount broken down and the time left', async () => {
    servePayment();
    renderPage();
    expect(screen.getByText('お支払いの準備をしています')).toBeInTheDocument();
    await payButton();
    const breakdown = screen.getByText('合計（税込）').closest('dl')!;
    const rows = within(breakdown)
      .getAllByRole('term')
      .map((dt) => `${dt.textContent}:${dt.nextElementSibling?.textContent}`);
    expect(rows).toEqual([
      'レッスン料:12,000円',
      'システム利用料:550円',
      '合計（税込）:12,550円',
    ]);
    expect(screen.getByRole('timer')).toHaveTextContent(
      'お支払い期限まで 14:59',
    );
    expect(await screen.findByText('府中カントリークラブ')).toBeInTheDocument();
    expect(await screen.findByText('山田 太郎プロ')).toBeInTheDocument();
    expect(stripe.options.at(-1)).toEqual({
      clientSecret: 'pi_1_secret_a',
      locale: 'ja',
    });
    expect(apiCalls.find((c) => c.path === '/payment/start')?.body).toEqual({
      scheduleId: 'S1',
    });
  });

  it('says when the hold runs out and holds a new place on もう一度予約する', async () => {
    const user = userEvent.setup();
    servePayment({
      '/payment/start': holdThenNewHold({
        holdExpiresAt: '2026-11-20T00:30:00.000Z',
      }),
    });
    renderPage();
    await payButton();
    act(() => vi.setSystemTime(new Date('2026-11-20T00:15:00.000Z')));
    const lead = await screen.findByRole(
      'heading',
      { name: 'お支払い期限が過ぎました' },
      { timeout: 3000 },
    );
    await waitFor(() => expect(lead).toHaveFocus());
    expect(screen.queryByRole('button', { name: '支払う' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'もう一度予約する' }));
    await payButton();
    expect(screen.getByRole('timer')).toHaveTextContent(
      'お支払い期限まで 15:00',
    );
    expect(stripe.options.at(-1)).toEqual({
      clientSecret: 'pi_2_secret_b',
      locale: 'ja',
    });
    expect(pathsCalled().filter((p) => p === '/payment/start')).toHaveLength(2);
  });

  it('pays with Stripe, then has the server confirm, and links to the lesson and the receipt', async () => {
    const user = userEvent.setup();
    servePayment({ '/payment/confirm': () => ok(PAID) });
    stripe.confirm.mockResolvedValue({ ok: true, status: 'succeeded' });
    renderPage();
    await user.type(await screen.findByLabelText('カード番号'), '4242');
    await user.click(await payButton());
    const done = await screen.findByRole('heading', {
      name: 'お支払いが完了しました',
    });
    await waitFor(() => expect(done).toHaveFocus());
    expect(stripe.confirm).toHaveBeenCalledTimes(1);
    const returnUrl = new URL(stripe.confirm.mock.calls[0]![0]);
    expect(returnUrl.hash).toBe('#/payment/S1?reservationId=PAY1');
    expect(apiCalls.find((c) => c.path === '/payment/confirm')?.body).toEqual({
      reservationId: 'PAY1',
    });
    expect(
      screen.getByText('お支払い金額：12,550円（税込）'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '領収書を表示' })).toHaveAttribute(
      'href',
      '/receipt/PAY1',
    );
    expect(
      screen.getByRole('link', { name: '予約を確認する' }),
    ).toHaveAttribute('href', '/tabs/schedule');
    expect(
      screen.getByRole('link', { name: 'レッスンのページへ' }),
    ).toHaveAttribute('href', '/tabs/schedule/pro/pro-1');
  });

  it('asks the server again while Stripe has not settled the payment', async () => {
    const user = userEvent.setup();
    servePayment({
      '/payment/confirm': firstThen(
        () => ok({ ...PAID, status: 'pending', receiptNo: undefined }),
        () => ok(PAID),
      ),
    });
    stripe.confirm.mockResolvedValue({ ok: true, status: 'processing' });
    renderPage();
    await user.click(await payButton());
    expect(
      await screen.findByRole(
        'heading',
        { name: 'お支払いが完了しました' },
        { timeout: 4000 },
      ),
    ).toBeInTheDocument();
    expect(pathsCalled().filter((p) => p === '/payment/confirm')).toHaveLength(
      2,
    );
  });

  it('when the confirmation fails, says so and confirms again on request', async () => {
    const user = userEvent.setup();
    servePayment({
      '/payment/confirm': firstThen(
        () => ng('ServiceUnavailable'),
        () => ok(PAID),
      ),
    });
    stripe.confirm.mockResolvedValue({ ok: true, status: 'succeeded' });
    renderPage();
    await user.click(await payButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'お支払いを確認できませんでした。',
    );
    await user.click(screen.getByRole('button', { name: 'もう一度確認する' }));
    expect(
      await screen.findByRole('heading', { name: 'お支払いが完了しました' }),
    ).toBeInTheDocument();
    expect(stripe.confirm).toHaveBeenCalledTimes(1);
  });

  it('shows a card decline in Japanese and keeps what was typed', async () => {
    const user = userEvent.setup();
    servePayment();
    stripe.confirm.mockResolvedValue({
      ok: false,
      failure: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    renderPage();
    const card = await screen.findByLabelText('カード番号');
    await user.type(card, '4000000000000002');
    await user.click(await payButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'カードが承認されませんでした。別のカードをお試しいただくか、カード会社にお問い合わせください。',
    );
    expect(screen.getByLabelText('カード番号')).toHaveValue('4000000000000002');
    expect(await payButton()).toBeEnabled();
    expect(pathsCalled()).not.toContain('/payment/confirm');
  });

  it('after a decline, tries the same card form again while the hold lasts', async () => {
    const user = userEvent.setup();
    servePayment({ '/payment/confirm': () => ok(PAID) });
    stripe.confirm
      .mockResolvedValueOnce({
        ok: false,
        failure: { type: 'card_error', code: 'card_declined', message: 'x' },
      })
      .mockResolvedValueOnce({ ok: true, status: 'succeeded' });
    renderPage();
    await user.click(await payButton());
    await screen.findByRole('alert');
    await user.click(await payButton());
    expect(
      await screen.findByRole('heading', { name: 'お支払いが完了しました' }),
    ).toBeInTheDocument();
    // The hold was asked about again before the second try, and was the same.
    expect(pathsCalled().filter((p) => p === '/payment/start')).toHaveLength(2);
    expect(stripe.confirm).toHaveBeenCalledTimes(2);
  });

  it('after a decline released the hold, holds again and asks for the card again', async () => {
    const user = userEvent.setup();
    servePayment({
      '/payment/start': holdThenNewHold(),
    });
    stripe.confirm.mockResolvedValue({
      ok: false,
      failure: { type: 'card_error', code: 'card_declined', message: 'x' },
    });
    renderPage();
    await user.click(await payButton());
    await screen.findByRole('alert');
    await user.click(await payButton());
    expect(
      await screen.findByText(
        '前回のお支払いが完了しなかったため、席を確保し直しました。カード情報をもう一度入力してください。',
      ),
    ).toBeInTheDocument();
    expect(stripe.options.at(-1)).toEqual({
      clientSecret: 'pi_2_secret_b',
      locale: 'ja',
    });
    expect(stripe.confirm).toHaveBeenCalledTimes(1);
  });

  it('explains a full lesson and offers no retry', async () => {
    servePayment({ '/payment/start': () => ng('ScheduleFull') });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'このレッスンは満員になりました。スケジュールからキャンセル待ちに登録できます。',
    );
    expect(within(alert).queryByRole('button')).toBeNull();
    expect(
      within(alert).getByRole('link', { name: 'スケジュールに戻る' }),
    ).toBeInTheDocument();
  });

  it('explains an already reserved (409) lesson, or too many holds running', async () => {
    servePayment({ '/payment/start': () => ng('Conflict') });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('すでに予約済みか、受付が終了しているか');
    expect(alert).toHaveTextContent(
      'お支払い待ちのレッスンが上限の3件に達しています',
    );
  });

  it('offers trying again when Stripe cannot be reached (503), and then goes on', async () => {
    const user = userEvent.setup();
    servePayment({
      '/payment/start': firstThen(
        () => ng('ServiceUnavailable'),
        () => ok(hold()),
      ),
    });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '決済サービスに接続できませんでした。',
    );
    await user.click(screen.getByRole('button', { name: 'もう一度試す' }));
    expect(await payButton()).toBeEnabled();
  });

  it('confirms on the way back from a Stripe redirect without holding again', async () => {
    serveApi({ '/payment/confirm': () => ok(PAID), ...lessonRoutes });
    renderPage(
      '/payment/S1?reservationId=PAY1&payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_a&redirect_status=succeeded',
    );
    expect(
      await screen.findByRole('heading', { name: 'お支払いが完了しました' }),
    ).toBeInTheDocument();
    expect(pathsCalled()).not.toContain('/payment/start');
    expect(apiCalls.find((c) => c.path === '/payment/confirm')?.body).toEqual({
      reservationId: 'PAY1',
    });
  });

  it('after a failed redirect, holds again and says the payment did not go through', async () => {
    servePayment();
    renderPage(
      '/payment/S1?reservationId=PAY1&payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_a&redirect_status=failed',
    );
    await payButton();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'お支払いが完了しませんでした。',
    );
    expect(pathsCalled()).not.toContain('/payment/confirm');
  });

  it('without online payment says the fee is paid at the course and calls nothing', async () => {
    runtimeConfig.stripePublishableKey = null;
    serveApi(lessonRoutes);
    renderPage();
    expect(await screen.findByText(PAY_AT_COURSE)).toBeInTheDocument();
    expect(pathsCalled()).not.toContain('/payment/start');
  });

  it('tells a pro that only amateurs pay here', async () => {
    serveApi(lessonRoutes);
    renderPage('/payment/S1', 'pro');
    expect(
      await screen.findByText(
        'お支払いはアマチュア会員のみご利用いただけます。',
      ),
    ).toBeInTheDocument();
    expect(pathsCalled()).not.toContain('/payment/start');
  });
});
