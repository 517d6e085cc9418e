import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeConfig } from '@/config/env';
import { createNotificationSettings } from '@/testing/factories';
import {
  answerOnce,
  apiCalls,
  deferred,
  ng,
  ok,
  serveApi,
} from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { NotificationSettingsPanel } from '../components/notification-settings-panel';

const switchNamed = (name: string) => screen.findByRole('switch', { name });

describe('通知設定', () => {
  it('shows the three switches as the server has them, with what they cover', async () => {
    serveApi({
      '/user/notificationSettings': () =>
        ok(createNotificationSettings({ chatMail: false })),
    });
    renderWithProviders(<NotificationSettingsPanel />);
    expect(
      screen.getByRole('heading', { level: 2, name: '通知設定' }),
    ).toBeInTheDocument();
    expect(await switchNamed('予約・キャンセルのお知らせ')).toBeChecked();
    expect(await switchNamed('前日のリマインダー')).toBeChecked();
    const chat = await switchNamed('チャットの未読のお知らせ');
    expect(chat).not.toBeChecked();
    expect(chat).toHaveAccessibleDescription(
      'レッスンのチャットに30分以上未読のメッセージがあるときのメールです。',
    );
    expect(screen.getAllByRole('switch')).toHaveLength(3);
    expect(
      screen.getByText(
        /パスワードの再設定、退会など、アカウントに関するメールは設定にかかわらず必ず送信されます。/,
      ),
    ).toBeInTheDocument();
  });

  describe('the booking switch names every mail it stops', () => {
    const savedKey = runtimeConfig.stripePublishableKey;
    afterEach(() => {
      runtimeConfig.stripePublishableKey = savedKey;
    });
    const bookingHint = async () => {
      serveApi({
        '/user/notificationSettings': () => ok(createNotificationSettings()),
      });
      renderWithProviders(<NotificationSettingsPanel />);
      return switchNamed('予約・キャンセルのお知らせ');
    };

    // The server files these under the same category (outbox-repository.ts
    // CATEGORY_OF and paymentMail): the course of a booked lesson changed,
    // the review invitation, and the payment mails.
    it('with lessons paid at the course', async () => {
      runtimeConfig.stripePublishableKey = null;
      expect(await bookingHint()).toHaveAccessibleDescription(
        '予約の確定・キャンセル、レッスンの中止、キャンセル待ちからの繰り上がり、予約したレッスンのゴルフ場の変更、レッスン後の口コミのお願いのメールです。',
      );
    });

    it('with online payment, the receipt and refund mails too', async () => {
      runtimeConfig.stripePublishableKey = 'pk_test_settings';
      expect(await bookingHint()).toHaveAccessibleDescription(
        '予約の確定・キャンセル、レッスンの中止、キャンセル待ちからの繰り上がり、予約したレッスンのゴルフ場の変更、レッスン後の口コミのお願い、オンライン決済のお支払い受付・返金のメールです。',
      );
    });
  });

  it('saves a switch at once (only that setting) and says 保存しました', async () => {
    const user = userEvent.setup();
    serveApi({
      '/user/notificationSettings': () => ok(createNotificationSettings()),
      '/user/notificationSettingsUpdate': (body: object) =>
        ok(createNotificationSettings(body)),
    });
    renderWithProviders(<NotificationSettingsPanel />);
    const reminder = await switchNamed('前日のリマインダー');
    await user.click(reminder);
    expect(reminder).not.toBeChecked();
    expect(await screen.findByRole('status')).toHaveTextContent(
      '保存しました（前日のリマインダー：オフ）',
    );
    expect(
      apiCalls.find((c) => c.path === '/user/notificationSettingsUpdate')?.body,
    ).toEqual({ reminderMail: false });
    // The keyboard works too: Space flips the focused switch back on.
    await user.keyboard(' ');
    await waitFor(() => expect(reminder).toBeChecked());
    expect(await screen.findByRole('status')).toHaveTextContent(
      '保存しました（前日のリマインダー：オン）',
    );
  });

  it('moves at once, and moves back with an error when the server refuses', async () => {
    const user = userEvent.setup();
    const refusal = deferred();
    serveApi({
      '/user/notificationSettings': () => ok(createNotificationSettings()),
    });
    const { store } = renderWithProviders(<NotificationSettingsPanel />);
    const booking = await switchNamed('予約・キャンセルのお知らせ');
    answerOnce(refusal.reply);
    await user.click(booking);
    // Before the server answers.
    expect(booking).not.toBeChecked();
    refusal.release(ng('InternalError'));
    await waitFor(() => expect(booking).toBeChecked());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '「予約・キャンセルのお知らせ」を保存できませんでした。設定は元に戻しました。',
    );
    expect(screen.getByRole('status')).toHaveTextContent('');
    // Said here, not in the global エラー dialog.
    expect(store.getState().ui.alerts).toEqual([]);
  });

  it('offers to load again when the settings cannot be read', async () => {
    const user = userEvent.setup();
    let fail = true;
    serveApi({
      '/user/notificationSettings': () =>
        fail ? ng('InternalError') : ok(createNotificationSettings()),
    });
    renderWithProviders(<NotificationSettingsPanel />);
    expect(
      await screen.findByText('通知設定を読み込めませんでした。'),
    ).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: '再読み込み' }));
    expect(await switchNamed('前日のリマインダー')).toBeChecked();
  });
});
