import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
