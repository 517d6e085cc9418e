import { isApiError, type ApiError } from '@/lib/api-error';

/** `入力内容に誤りがあります。（password）` → `password`. */
export const fieldFromServerMessage = (msg: string): string | undefined =>
  /[（(]([A-Za-z.]+)[）)]\s*$/.exec(msg)?.[1];

/** The NG answer of a failed mutation result, if it was one. */
export const apiErrorOf = (result: { error?: unknown }): ApiError | null =>
  isApiError(result.error) ? result.error : null;

/** The form field a ValidationError names, when it is one of `fields`. */
export const fieldOfValidationError = <F extends string>(
  error: ApiError | null,
  fields: readonly F[],
): F | undefined => {
  if (error?.code !== 'ValidationError') return undefined;
  const name = fieldFromServerMessage(error.msg);
  return fields.find((f) => f === name);
};
