import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import { runtimeConfig } from '@/config/env';
import { tokenReceived } from '@/features/auth/auth-slice';
import { createAuthUser, createLoginResult } from '@/testing/auth';
import { apiCalls, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { addresseeKey, ReceiptPage } from '../components/receipt-page';
import { createPayment } from './payment-factories';

const savedConfig = { ...runtimeConfig };
beforeEach(() => {
  Object.assign(runtimeConfig, {
    companyName: '株式会社テスト精算',
    companyAddress: '〒150-0001 東京都渋谷区神宮前1-2-3',
    companyPhone: '03-1234-5678',
  });
  vi.useFakeTimers({ toFake: ['Date'] });
  // 2026-11-30 00:30 in Japan: the issue date is Japan's.
  vi.setSystemTime(new Date('2026-11-29T15:30:00.000Z'));
});
afterEach(() => {
  Object.assign(runtimeConfig, savedConfig);
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
});

const storeFor = (id: string) => {
  const store = makeStore();
  store.dispatch(
    tokenReceived(createLoginResult({ user: createAuthUser({ id }) })),
  );
  return store;
};

const renderReceipt = (reservationId: string, userId = 'u-1') =>
  renderWithProviders(<ReceiptPage />, {
    store: storeFor(userId),
    route: `/receipt/${reservationId}`,
    path: '/receipt/:reservationId',
  });

const PAID = createPayment('01KPAY0000007F3K9QXZ', {
  receiptNo: 'R20261120-7F3K9QXZ',
});

describe('領収書', () => {
  it('shows the amount, tax, receipt number, dates, lesson and company', async () => {
    serveApi({ '/payment/list': () => ok([createPayment('other'), PAID]) });
    renderReceipt(PAID.reservationId);
    const receipt = await screen.findByRole('article', { name: '領収書' });
    const r = within(receipt);
    expect(r.getByText('R20261120-7F3K9QXZ')).toBeInTheDocument();
    expect(receipt).toHaveTextContent('No.R20261120-7F3K9QXZ');
    expect(receipt).toHaveTextContent('発行日2026年11月30日(月)');
    expect(receipt).toHaveTextContent('金額 ￥12,550-（税込）');
    expect(
      r.getByText('但し ラウンドレッスン参加費として'),
    ).toBeInTheDocument();
    const rows = within(r.getByRole('table', { name: '内訳' }))
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'レッスン料12,000円',
      'システム利用料550円',
      '合計（税込）12,550円',
      // floor(12550 × 10 / 110) = 1140
      '内消費税等（10%）1,140円',
    ]);
    expect(receipt).toHaveTextContent('お支払い日2026年11月20日(金)');
    expect(receipt).toHaveTextContent(
      '2026年11月28日(土) 09:30〜 富士見ヶ丘カントリー倶楽部（佐藤 健太プロ）',
    );
    expect(r.getByText('株式会社テスト精算')).toBeInTheDocument();
    expect(
      r.getByText('〒150-0001 東京都渋谷区神宮前1-2-3'),
    ).toBeInTheDocument();
    expect(r.getByText('TEL 03-1234-5678')).toBeInTheDocument();
    expect(receipt).not.toHaveTextContent('返金済み');
    expect(apiCalls[0]?.body).toEqual({ page: 1, size: 50 });
  });

  it('keeps the 宛名 per member, with 様 after it', async () => {
    const user = userEvent.setup({ advanceTimers: () => undefined });
    serveApi({ '/payment/list': () => ok([PAID]) });
    const first = renderReceipt(PAID.reservationId);
    const input = await screen.findByRole('textbox', { name: '宛名' });
    expect(input).toHaveValue('');
    await user.type(input, '株式会社山本商事');
    const receipt = screen.getByRole('article', { name: '領収書' });
    expect(receipt).toHaveTextContent('株式会社山本商事様');
    expect(localStorage.getItem(addresseeKey('u-1'))).toBe('株式会社山本商事');
    first.unmount();

    // The same member's next receipt starts with it; another member's does not.
    renderReceipt(PAID.reservationId);
    expect(await screen.findByRole('textbox', { name: '宛名' })).toHaveValue(
      '株式会社山本商事',
    );
    expect(screen.getByRole('article', { name: '領収書' })).toHaveTextContent(
      '株式会社山本商事様',
    );
  });

  it('does not carry one member’s 宛名 to another', async () => {
    localStorage.setItem(addresseeKey('u-1'), '株式会社山本商事');
    serveApi({ '/payment/list': () => ok([PAID]) });
    renderReceipt(PAID.reservationId, 'u-2');
    expect(await screen.findByRole('textbox', { name: '宛名' })).toHaveValue(
      '',
    );
  });

  it('prints with 印刷する', async () => {
    const user = userEvent.setup({ advanceTimers: () => undefined });
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    serveApi({ '/payment/list': () => ok([PAID]) });
    renderReceipt(PAID.reservationId);
    await user.click(await screen.findByRole('button', { name: '印刷する' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('finds a payment on a later page of the list', async () => {
    const fullPage = Array.from({ length: 50 }, (_, i) =>
      createPayment(`newer${i}`),
    );
    serveApi({
      '/payment/list': (body: { page: number }) =>
        ok(body.page === 1 ? fullPage : [PAID]),
    });
    renderReceipt(PAID.reservationId);
    expect(
      await screen.findByRole('article', { name: '領収書' }),
    ).toHaveTextContent('R20261120-7F3K9QXZ');
    expect(apiCalls.map((c) => c.body)).toEqual([
      { page: 1, size: 50 },
      { page: 2, size: 50 },
    ]);
  });

  it('says so for a payment not paid yet, or not found', async () => {
    serveApi({
      '/payment/list': () =>
        ok([
          createPayment('pending1', {
            status: 'pending',
            paidAt: undefined,
            receiptNo: undefined,
          }),
        ]),
    });
    const { unmount } = renderReceipt('pending1');
    expect(
      await screen.findByText('このお支払いの領収書はまだ発行できません'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '印刷する' })).toBeNull();
    unmount();

    renderReceipt('nosuch');
    expect(
      await screen.findByText('領収書が見つかりません'),
    ).toBeInTheDocument();
  });

  it('notes a refund on the receipt', async () => {
    serveApi({
      '/payment/list': () =>
        ok([
          {
            ...PAID,
            status: 'refunded',
            refundedAt: '2026-11-22T02:00:00.000Z',
          },
        ]),
    });
    renderReceipt(PAID.reservationId);
    expect(
      await screen.findByRole('article', { name: '領収書' }),
    ).toHaveTextContent('このお支払いは2026年11月22日(日)に返金済みです。');
  });
});
