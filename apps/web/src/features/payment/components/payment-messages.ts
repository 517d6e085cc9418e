import { HOLDS_PER_MEMBER_MAX } from '@proam/contract';
import type { ApiError } from '@/lib/api-error';
import type { PaymentFailure } from '../payment-elements';

/** Stripe answers in the Elements' locale; anything else is replaced by our own sentence. */
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Card declines and input errors Stripe names by code, said in Japanese. */
const BY_CODE: Record<string, string> = {
  card_declined:
    'カードが承認されませんでした。別のカードをお試しいただくか、カード会社にお問い合わせください。',
  insufficient_funds:
    'カードのご利用可能額が不足しています。別のカードをお試しください。',
  expired_card:
    'カードの有効期限が切れています。有効期限をご確認いただくか、別のカードをお試しください。',
  incorrect_cvc: 'セキュリティコードが正しくありません。',
  invalid_cvc: 'セキュリティコードが正しくありません。',
  incorrect_number: 'カード番号が正しくありません。',
  invalid_number: 'カード番号が正しくありません。',
  invalid_expiry_month: '有効期限（月）が正しくありません。',
  invalid_expiry_year: '有効期限（年）が正しくありません。',
  processing_error:
    'カードの処理中にエラーが発生しました。しばらくしてからもう一度お試しください。',
  payment_intent_authentication_failure:
    'カードの本人認証に失敗しました。もう一度お試しいただくか、別のカードをお試しください。',
};

export const PAYMENT_FAILED_MSG =
  'お支払いを完了できませんでした。入力内容をご確認のうえ、もう一度お試しください。';

/**
 * Why Stripe did not take the payment, in Japanese: Stripe's own message when
 * it already speaks Japanese (locale 'ja'), else ours for the code.
 */
export const stripeFailureMessage = (
  failure: PaymentFailure | null,
): string => {
  if (!failure) return PAYMENT_FAILED_MSG;
  if (failure.message && JAPANESE.test(failure.message)) return failure.message;
  const byCode =
    (failure.decline_code && BY_CODE[failure.decline_code]) ||
    (failure.code && BY_CODE[failure.code]);
  if (byCode) return byCode;
  if (failure.type === 'validation_error')
    return 'カード情報の入力内容をご確認ください。';
  return PAYMENT_FAILED_MSG;
};

/** /payment/start failures that trying again will not mend, said in Japanese. */
const START_FINAL: Partial<Record<ApiError['code'], string>> = {
  ScheduleFull:
    'このレッスンは満員になりました。スケジュールからキャンセル待ちに登録できます。',
  Conflict: `このレッスンはお支払いの手続きができません。すでに予約済みか、受付が終了しているか、お支払い待ちのレッスンが上限の${HOLDS_PER_MEMBER_MAX}件に達しています（お支払いを済ませるか取り消すと、次のレッスンを予約できます）。`,
  Forbidden: 'このレッスンはご予約いただけません。',
  NotFound: 'レッスンが見つかりませんでした。',
};

/** /payment/start failures worth another try; any other code keeps the server's message. */
const START_RETRY: Partial<Record<ApiError['code'], string>> = {
  PaymentRequired: 'お支払いが完了していません。',
  ServiceUnavailable:
    '決済サービスに接続できませんでした。席は確保されています。しばらくしてから「もう一度試す」を押してください。',
};

/** What the page says when /payment/start fails, and whether trying again may help. */
export const startFailureMessage = (
  error: ApiError,
): { text: string; retry: boolean } => {
  const final = START_FINAL[error.code];
  if (final) return { text: final, retry: false };
  return { text: START_RETRY[error.code] ?? error.msg, retry: true };
};
