/**
 * The error catalogue of docs/api.md: every NG code with its HTTP status and
 * the Japanese message shown to the user. Kept free of TypeBox so the web
 * bundle can import it without pulling in the schema builder.
 */
export const ERRORS = {
  ValidationError: { http: 400, msg: '入力内容に誤りがあります。' },
  InvalidCode: {
    http: 400,
    msg: '認証コードが正しくないか、有効期限が切れています。',
  },
  InvalidClient: { http: 401, msg: 'アプリの認証に失敗しました。' },
  InvalidCredentials: {
    http: 401,
    msg: 'メールアドレスまたはパスワードが正しくありません。',
  },
  InvalidAccessToken: { http: 401, msg: '認証の有効期限が切れました。' },
  InvalidRefreshToken: {
    http: 401,
    msg: '一定期間ご利用がなかったため、ログインの有効期限が切れました。再度ログインしてください。',
  },
  Forbidden: { http: 403, msg: 'この操作を行う権限がありません。' },
  NotFound: { http: 404, msg: '対象のデータが見つかりません。' },
  MethodNotAllowed: { http: 405, msg: 'この操作には対応していません。' },
  Conflict: {
    http: 409,
    msg: '他の操作と競合しました。もう一度お試しください。',
  },
  EmailTaken: { http: 409, msg: 'このメールアドレスは既に登録されています。' },
  ScheduleFull: { http: 409, msg: 'このラウンドレッスンは満員です。' },
  CancelClosed: {
    http: 409,
    msg: 'キャンセル期限（レッスン前日）を過ぎているため、キャンセルできません。',
  },
  PaymentRequired: { http: 402, msg: 'お支払いが完了していません。' },
  PayloadTooLarge: { http: 413, msg: 'ファイルサイズが大きすぎます。' },
  UnsupportedMediaType: {
    http: 415,
    msg: 'このファイル形式には対応していません。',
  },
  TooManyRequests: {
    http: 429,
    msg: '操作が多すぎます。しばらく時間をおいてから再度お試しください。',
  },
  InternalError: {
    http: 500,
    msg: 'サーバーでエラーが発生しました。時間をおいて再度お試しください。',
  },
  ServiceUnavailable: {
    http: 503,
    msg: 'ただいま混み合っています。しばらく時間をおいてから再度お試しください。',
  },
} as const satisfies Record<string, { http: number; msg: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
