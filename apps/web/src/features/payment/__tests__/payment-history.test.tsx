import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runtimeConfig } from '@/config/env';
import { apiCalls, ng, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { PaymentHistory } from '../components/payment-history';
import { PAYMENT_PAGE_SIZE } from '../payment-records-api';
import { createPayment as payment } from './payment-factories';

const saved = runtimeConfig.stripePublishableKey;
beforeEach(() => {
  runtimeConfig.stripePublishableKey = 'pk_test_history';
});
afterEach(() => {
  runtimeConfig.stripePublishableKey = saved;
});

describe('支払い履歴', () => {
  it('shows each payment with its lesson, total, status, dates and 領収書', async () => {
    serveApi({
      '/payment/list': () =>
        ok([
          payment('pay00001'),
          payment('pay00002', {
            date: '2026-11-10',
            status: 'refunded',
            refundedAt: '2026-11-08T03:00:00.000Z',
          }),
          payment('pay00003', {
            status: 'pending',
            paidAt: undefined,
            receiptNo: undefined,
          }),
          payment('pay00004', {
            status: 'failed',
            paidAt: undefined,
            receiptNo: undefined,
          }),
        ]),
    });
    renderWithProviders(<PaymentHistory />);
    const section = await screen.findByRole('region', { name: '支払い履歴' });
    const items = await within(section).findAllByRole('article');
    expect(items).toHaveLength(4);
    expect(apiCalls[0]?.body).toEqual({ page: 1, size: PAYMENT_PAGE_SIZE });

    const first = items[0]!;
    expect(
      within(first).getByRole('heading', {
        name: '2026年11月28日(土) 09:30〜 富士見ヶ丘カントリー倶楽部',
      }),
    ).toBeInTheDocument();
    expect(first).toHaveTextContent('支払い済み');
    expect(first).toHaveTextContent('12,550円（税込）');
    expect(first).toHaveTextContent(
      'レッスン料 12,000円・システム利用料 550円',
    );
    expect(first).toHaveTextContent('2026年11月20日(金) 10:05');
    expect(
      within(first).getByRole('link', { name: '佐藤 健太' }),
    ).toHaveAttribute('href', '/tabs/likes/pro/p-1');
    expect(
      within(first).getByRole('link', { name: /^領収書/ }),
    ).toHaveAttribute('href', '/receipt/pay00001');

    expect(items[1]).toHaveTextContent('返金済み');
    expect(items[1]).toHaveTextContent('返金日時2026年11月8日(日) 12:00');
    expect(items[2]).toHaveTextContent('お支払い待ち');
    expect(items[3]).toHaveTextContent('失敗');
    // No receipt before the money arrived.
    expect(
      within(items[2]!).queryByRole('link', { name: /領収書/ }),
    ).toBeNull();
    expect(
      within(items[3]!).queryByRole('link', { name: /領収書/ }),
    ).toBeNull();
  });

  it('says there is no history when payments are on and nothing was paid', async () => {
    serveApi({ '/payment/list': () => ok([]) });
    renderWithProviders(<PaymentHistory />);
    expect(
      await screen.findByText('お支払いの履歴はありません'),
    ).toBeInTheDocument();
  });

  it('stays away in 現地払い mode unless there is history', async () => {
    runtimeConfig.stripePublishableKey = null;
    serveApi({ '/payment/list': () => ok([]) });
    const { store, unmount } = renderWithProviders(<PaymentHistory />);
    // The list was asked for and its (empty) answer has arrived.
    await waitFor(() => expect(apiCalls).toHaveLength(1));
    await waitFor(() => expect(store.getState().ui.pendingRequests).toBe(0));
    expect(screen.queryByRole('region', { name: '支払い履歴' })).toBeNull();
    expect(screen.queryByText('お支払いの履歴はありません')).toBeNull();
    unmount();

    serveApi({ '/payment/list': () => ok([payment('pay00009')]) });
    renderWithProviders(<PaymentHistory />);
    const section = await screen.findByRole('region', { name: '支払い履歴' });
    expect(await within(section).findAllByRole('article')).toHaveLength(1);
  });

  it('loads older payments with もっと見る', async () => {
    const user = userEvent.setup();
    const page1 = Array.from({ length: PAYMENT_PAGE_SIZE }, (_, i) =>
      payment(`pay${String(i).padStart(5, '0')}`),
    );
    serveApi({
      '/payment/list': (body: { page: number }) =>
        ok(
          body.page === 1
            ? page1
            : [payment('older001', { place: '古いコース' })],
        ),
    });
    renderWithProviders(<PaymentHistory />);
    await user.click(await screen.findByRole('button', { name: 'もっと見る' }));
    expect(await screen.findByText(/古いコース/)).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(PAYMENT_PAGE_SIZE + 1);
    expect(apiCalls.map((c) => c.body)).toEqual([
      { page: 1, size: PAYMENT_PAGE_SIZE },
      { page: 2, size: PAYMENT_PAGE_SIZE },
    ]);
    // A short page is the last one.
    expect(screen.queryByRole('button', { name: 'もっと見る' })).toBeNull();
  });

  it('offers 再読み込み when the list cannot be read', async () => {
    serveApi({ '/payment/list': () => ng('InternalError') });
    const { store } = renderWithProviders(<PaymentHistory />);
    expect(
      await screen.findByText('支払い履歴を読み込めませんでした。'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '再読み込み' })).toBeEnabled();
    // The section says it itself: no エラー dialog on top.
    expect(store.getState().ui.alerts).toEqual([]);
  });
});
