import { ERRORS } from '@proam/contract';
import { within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import type { AppStore } from '@/app/store';
import { pathsCalled } from './msw';

type User = ReturnType<typeof userEvent.setup>;

/** An open ReasonDialog (中止の理由, 利用停止の理由, 対応内容) and how to find its parts. */
export type ReasonDialogParts = {
  dialog: HTMLElement;
  /** The label of the text box. */
  box: RegExp;
  /** The label of the button that sends. */
  confirm: string;
};

/** Types `text` into the dialog's box and sends it. */
export const sendReason = async (
  user: User,
  { dialog, box, confirm }: ReasonDialogParts,
  text: string,
) => {
  await user.type(within(dialog).getByRole('textbox', { name: box }), text);
  await user.click(within(dialog).getByRole('button', { name: confirm }));
};

/**
 * What every feature's ReasonDialog does before it succeeds, checked the one
 * way: the box has the focus; sent empty, `required` shows beside it and
 * nothing reaches `path`; then `text` sent to a server that fails with an
 * InternalError: the failure is said in the dialog, `text` stays and no
 * global alert shows. Returns `sendAgain`, for when the server answers.
 */
export const expectReasonRequiredThenKeptOnFailure = async (
  user: User,
  store: AppStore,
  parts: ReasonDialogParts & { required: string; path: string; text: string },
) => {
  const { dialog, box, confirm, required, path, text } = parts;
  const reason = within(dialog).getByRole('textbox', { name: box });
  const sendAgain = () =>
    user.click(within(dialog).getByRole('button', { name: confirm }));
  expect(reason).toHaveFocus();

  await sendAgain();
  expect(within(dialog).getByText(required)).toBeInTheDocument();
  expect(reason).toHaveAttribute('aria-invalid', 'true');
  expect(pathsCalled()).not.toContain(path);

  await sendReason(user, parts, text);
  expect(
    await within(dialog).findByText(ERRORS.InternalError.msg),
  ).toBeInTheDocument();
  expect(within(dialog).getByRole('alert')).toBeInTheDocument();
  expect(reason).toHaveValue(text);
  expect(store.getState().ui.alerts).toEqual([]);
  return sendAgain;
};
