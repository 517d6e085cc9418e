import type { Mail } from './mailer.js';

const SIGNATURE = [
  '',
  '──────────────────',
  'ProAm Connect 運営事務局',
  '※このメールは送信専用アドレスからお送りしています。',
  '※お心当たりのない場合は、このメールを破棄してください。',
].join('\n');

export const registrationCodeMail = (to: string, code: string): Mail => ({
  to,
  subject: '【ProAm Connect】会員登録の認証コード',
  text: [
    'ProAm Connect へのご登録ありがとうございます。',
    '',
    '以下の認証コードを登録画面に入力してください。',
    '',
    `認証コード: ${code}`,
    '',
    'このコードの有効期限は10分間です。',
    SIGNATURE,
  ].join('\n'),
});

export const alreadyRegisteredMail = (to: string): Mail => ({
  to,
  subject: '【ProAm Connect】会員登録について',
  text: [
    'このメールアドレスは既に ProAm Connect に登録されています。',
    '',
    'ログイン画面からログインしてください。パスワードをお忘れの場合は「パスワードを忘れた方」から再設定できます。',
    SIGNATURE,
  ].join('\n'),
});

export const resetCodeMail = (to: string, code: string): Mail => ({
  to,
  subject: '【ProAm Connect】パスワード再設定の認証コード',
  text: [
    'パスワード再設定のお手続きを受け付けました。',
    '',
    '以下の認証コードを再設定画面に入力してください。',
    '',
    `認証コード: ${code}`,
    '',
    'このコードの有効期限は10分間です。お手続きをされていない場合、パスワードは変更されません。',
    SIGNATURE,
  ].join('\n'),
});

export const passwordChangedMail = (to: string): Mail => ({
  to,
  subject: '【ProAm Connect】パスワードが変更されました',
  text: [
    'ProAm Connect のパスワードが変更されました。',
    '',
    'すべての端末からログアウトしましたので、新しいパスワードで再度ログインしてください。',
    'お心当たりがない場合は、お問い合わせフォームから至急ご連絡ください。',
    SIGNATURE,
  ].join('\n'),
});
