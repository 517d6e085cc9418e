import { useId, useState } from 'react';
import type { NotificationSettings } from '@proam/contract';
import { MemberSection } from '@/components/member-section';
import { paymentsEnabled } from '@/config/env';
import { InlineError } from '@/components/inline-error';
import { Spinner } from '@/components/spinner';
import { apiErrorOf } from '@/lib/server-errors';
import {
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
} from '../notifications-api';

type SettingKey = keyof NotificationSettings;

/**
 * Every mail the server files under `booking` (apps/api outbox-repository.ts,
 * CATEGORY_OF and paymentMail), which this switch stops. The payment mails
 * exist only with online payment.
 */
const bookingHint = () =>
  [
    '予約の確定・キャンセル',
    'レッスンの中止',
    'キャンセル待ちからの繰り上がり',
    '予約したレッスンのゴルフ場の変更',
    'レッスン後の口コミのお願い',
    ...(paymentsEnabled() ? ['オンライン決済のお支払い受付・返金'] : []),
  ].join('、') + 'のメールです。';

const SWITCHES: readonly {
  key: SettingKey;
  label: string;
  hint: string | (() => string);
}[] = [
  {
    key: 'bookingMail',
    label: '予約・キャンセルのお知らせ',
    hint: bookingHint,
  },
  {
    key: 'reminderMail',
    label: '前日のリマインダー',
    hint: 'レッスン前日の18時に届く、翌日のレッスンのご案内です。',
  },
  {
    key: 'chatMail',
    label: 'チャットの未読のお知らせ',
    hint: 'レッスンのチャットに30分以上未読のメッセージがあるときのメールです。',
  },
];

type Status = { kind: 'saved' | 'failed'; text: string } | null;

/**
 * 通知設定: three switches, each saved the moment it is flipped. The switch
 * moves at once; if the server refuses it moves back and the reason shows.
 */
export const NotificationSettingsPanel = () => {
  const baseId = useId();
  const { data, isLoading, isError, refetch } =
    useGetNotificationSettingsQuery();
  const [update] = useUpdateNotificationSettingsMutation();
  const [status, setStatus] = useState<Status>(null);

  const toggle = async (key: SettingKey, label: string, on: boolean) => {
    setStatus(null);
    const result = await update({ [key]: on });
    if (result.data) {
      setStatus({
        kind: 'saved',
        text: `保存しました（${label}：${on ? 'オン' : 'オフ'}）`,
      });
      return;
    }
    const error = apiErrorOf(result);
    setStatus({
      kind: 'failed',
      text: `「${label}」を保存できませんでした。設定は元に戻しました。${error?.msg ?? ''}`,
    });
  };

  return (
    <MemberSection
      id={`${baseId}-title`}
      className="notification-settings"
      title="通知設定"
    >
      <p className="notification-settings__lead">
        メールでお知らせする内容を選べます。切り替えるとすぐに保存されます。
      </p>
      {isLoading ? (
        <Spinner label="通知設定を読み込み中" />
      ) : isError || !data ? (
        <InlineError
          message="通知設定を読み込めませんでした。"
          onRetry={() => void refetch()}
        />
      ) : (
        <ul className="switch-list">
          {SWITCHES.map(({ key, label, hint }) => {
            const id = `${baseId}-${key}`;
            const on = data[key];
            return (
              <li key={key}>
                <label className="switch" htmlFor={id}>
                  <span className="switch__text">
                    <span id={`${id}-label`} className="switch__label">
                      {label}
                    </span>
                    <span id={`${id}-hint`} className="switch__hint">
                      {typeof hint === 'function' ? hint() : hint}
                    </span>
                  </span>
                  <input
                    id={id}
                    type="checkbox"
                    role="switch"
                    className="switch__input"
                    checked={on}
                    aria-labelledby={`${id}-label`}
                    aria-describedby={`${id}-hint`}
                    onChange={(e) => void toggle(key, label, e.target.checked)}
                  />
                  <span className="switch__track" aria-hidden="true">
                    <span className="switch__thumb" />
                  </span>
                  <span className="switch__state" aria-hidden="true">
                    {on ? 'オン' : 'オフ'}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {/* Live regions stay in the page so every change is announced. */}
      <p role="status" className="notification-settings__saved">
        {status?.kind === 'saved' ? status.text : ''}
      </p>
      <div role="alert" className="notification-settings__failed">
        {status?.kind === 'failed' && <p>{status.text}</p>}
      </div>
      <p className="notification-settings__always">
        認証コード、パスワードの再設定、退会など、アカウントに関するメールは設定にかかわらず必ず送信されます。
      </p>
    </MemberSection>
  );
};
