import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { tokenReceived } from '@/features/auth/auth-slice';
import { createAuthUser, createLoginResult } from '@/testing/auth';
import {
  createDeadMail,
  createMailOutboxSummary,
  createNotificationSettings,
  createUser,
} from '@/testing/factories';
import { ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import AdminRoute from '../admin';
import ProfileRoute from '../profile';

afterEach(() => {
  localStorage.clear();
});

const storeFor = (type: 'admin' | 'amature') => {
  const store = makeStore();
  store.dispatch(
    tokenReceived(createLoginResult({ user: createAuthUser({ type }) })),
  );
  return store;
};

describe('メール送信状況 in the admin area', () => {
  it('shows the counts and every mail given up', async () => {
    serveApi({
      '/admin/mailOutbox': () =>
        ok(
          createMailOutboxSummary({
            queued: 2,
            sent: 1234,
            skipped: 5,
            dead: 1,
            oldestQueuedAt: '2026-11-22T00:30:00.000Z',
            deadMails: [
              createDeadMail('m1', {
                to: 'pro1@example.jp',
                subject: '【ProAm Connect】レッスン中止のお知らせ',
                attempts: 9,
                lastError: '421 Service not available',
              }),
            ],
          }),
        ),
    });
    renderWithProviders(<AdminRoute />, {
      store: storeFor('admin'),
      route: '/?section=mail',
    });
    const tab = screen.getByRole('tab', { name: 'メール送信状況' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    const section = await screen.findByRole('region', {
      name: 'メール送信状況',
    });
    const count = (label: string) =>
      within(section).getByText(label).nextElementSibling?.textContent;
    expect(count('送信待ち')).toBe('2件');
    expect(count('送信済み')).toBe('1,234件');
    expect(count('送信不要（通知オフ）')).toBe('5件');
    expect(count('送信失敗')).toBe('1件');
    expect(
      within(section).getByText('最も古い送信待ち：2026年11月22日(日) 09:30'),
    ).toBeInTheDocument();
    const table = within(section).getByRole('table', {
      name: '送信に失敗したメール（1件）',
    });
    const [, row] = within(table).getAllByRole('row');
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'pro1@example.jp',
      '【ProAm Connect】レッスン中止のお知らせ',
      '9回',
      '421 Service not available',
      '2026年11月20日(金) 10:00',
    ]);
  });

  it('says so when no mail was given up', async () => {
    serveApi({
      '/admin/mailOutbox': () => ok(createMailOutboxSummary({ sent: 3 })),
    });
    renderWithProviders(<AdminRoute />, {
      store: storeFor('admin'),
      route: '/?section=mail',
    });
    expect(
      await screen.findByText('送信に失敗したメールはありません。'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('通知設定 in the profile tab', () => {
  it('sits under the profile form of a member', async () => {
    serveApi({
      '/user/read': () => ok(createUser()),
      '/user/notificationSettings': () => ok(createNotificationSettings()),
    });
    renderWithProviders(<ProfileRoute />, { store: storeFor('amature') });
    const section = await screen.findByRole('region', { name: '通知設定' });
    expect(await within(section).findAllByRole('switch')).toHaveLength(3);
  });
});
