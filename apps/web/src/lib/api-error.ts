import type { ErrorCode, NgEnvelope } from '@proam/contract';

/** Codes the client makes up for failures that never reached an NG envelope. */
export type ClientErrorCode = 'NetworkError' | 'InvalidResponse';

/** Every failed call yields this: the server's NG envelope, or one shaped like it. */
export type ApiError = Omit<NgEnvelope, 'code'> & {
  code: ErrorCode | ClientErrorCode;
  /** HTTP status, 0 when the request never got an answer. */
  httpStatus: number;
};

export const NETWORK_ERROR_MSG =
  '通信に失敗しました。通信環境をご確認ください。';
export const INVALID_RESPONSE_MSG =
  'サーバーから予期しない応答がありました。時間をおいて再度お試しください。';

export const isApiError = (value: unknown): value is ApiError =>
  typeof value === 'object' &&
  value !== null &&
  (value as { status?: unknown }).status === 'NG' &&
  typeof (value as { code?: unknown }).code === 'string';
