import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRouteChain, matchRouteChain } from '@/app/route-match';
import { pageRoutes } from '@/app/route-table';
import { runtimeConfig } from '@/config/env';
import { PaymentPage } from '@/features/payment/components/payment-page';
import { ReceiptPage } from '@/features/payment/components/receipt-page';
import { SalesPage } from '@/features/payment/components/sales-page';
import { createPayment } from '@/features/payment/__tests__/payment-factories';
import { storeLoggedInAs } from '@/testing/auth';
import {
  createNotificationSettings,
  createPro,
  createUser,
} from '@/testing/factories';
import { ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import ProfileRoute from '../../tabs/profile';
import TabsLayout from '../../tabs/tabs-layout';

const saved = runtimeConfig.stripePublishableKey;
beforeEach(() => {
  runtimeConfig.stripePublishableKey = 'pk_test_routes';
});
afterEach(() => {
  runtimeConfig.stripePublishableKey = saved;
  localStorage.clear();
});

describe('payment pages in the route table', () => {
  it.each([
    ['payment/01KSCHED', PaymentPage, { scheduleId: '01KSCHED' }],
    ['receipt/01KPAY', ReceiptPage, { reservationId: '01KPAY' }],
    ['sales', SalesPage, {}],
  ] as const)(
    '#/%s shows its page inside the member area (login, tab bar)',
    async (path, Page, params) => {
      const chain = matchRouteChain(pageRoutes, path);
      expect(chain.params).toEqual(params);
      await loadRouteChain(chain);
      const [layout, page] = chain.routes;
      expect(layout?.Component).toBe(TabsLayout);
      expect(page?.Component).toBe(Page);
    },
  );
});

describe('the profile tab with online payment', () => {
  it('shows an amateur the 支払い履歴', async () => {
    serveApi(
      {
        '/user/read': () => ok(createUser()),
        '/user/notificationSettings': () => ok(createNotificationSettings()),
        '/payment/list': () => ok([createPayment('01KPAY00000000AB')]),
      },
      () => ok([]),
    );
    renderWithProviders(<ProfileRoute />, {
      store: storeLoggedInAs({ type: 'amature' }),
    });
    const section = await screen.findByRole('region', { name: '支払い履歴' });
    expect(
      await within(section).findByRole('link', { name: /^領収書/ }),
    ).toHaveAttribute('href', '/receipt/01KPAY00000000AB');
    expect(screen.queryByRole('link', { name: '売上明細を見る' })).toBeNull();
  });

  it('gives a pro the way to 売上明細 instead', async () => {
    serveApi(
      {
        '/user/read': () => ok(createPro('p1')),
        '/user/notificationSettings': () => ok(createNotificationSettings()),
      },
      () => ok([]),
    );
    renderWithProviders(<ProfileRoute />, {
      store: storeLoggedInAs({ type: 'pro', id: 'p1' }),
    });
    expect(
      await screen.findByRole('link', { name: '売上明細を見る' }),
    ).toHaveAttribute('href', '/sales');
    expect(screen.queryByRole('region', { name: '支払い履歴' })).toBeNull();
  });
});
