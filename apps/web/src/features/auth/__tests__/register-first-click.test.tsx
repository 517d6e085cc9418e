import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLoginResult } from '@/testing/auth';
import { apiCalls, ok } from '@/testing/msw';
import { TERMS_REQUIRED_MSG } from '../auth-validation';
import {
  field,
  findField,
  passMailAndCode,
  renderRegistration,
} from './auth-helpers';

beforeEach(() => {
  localStorage.clear();
});

/** The text above `button` in its form: when it changes, the button moves. */
const textAbove = (button: HTMLButtonElement) => {
  const range = document.createRange();
  range.setStart(button.form!, 0);
  range.setEndBefore(button);
  return range.toString();
};

/**
 * A mouse press on `button` as Chromium does it: the press moves the focus
 * to the button (the field left gets a blur whose relatedTarget is the
 * button), and the click only lands on the button if nothing above it
 * changed in between; otherwise the release is over something else.
 */
const pressAsChromium = (button: HTMLButtonElement) => {
  const before = textAbove(button);
  fireEvent.mouseDown(button);
  act(() => button.focus());
  fireEvent.mouseUp(button);
  if (textAbove(button) === before) fireEvent.click(button);
};

describe('registration step 3, sent from the confirmation field', () => {
  it('checks every field on the first click: the blur does not move the button away', async () => {
    const { user } = renderRegistration(() => ok(createLoginResult()));
    await passMailAndCode(user);
    await user.type(await findField(/^氏名/), '山田 太郎');
    await user.type(field(/^ふりがな/), 'やまだ たろう');
    await user.click(screen.getByRole('radio', { name: /アマチュア会員/ }));
    await user.type(field(/^パスワード必須/), 'fairway-birdie-77');
    const confirm = field(/パスワード（確認）/);
    await user.type(confirm, 'fairway-birdie-78');
    expect(confirm).toHaveFocus();

    const send = screen.getByRole<HTMLButtonElement>('button', {
      name: '登録する',
    });
    pressAsChromium(send);

    // The one click checked the whole form: both mistakes are shown…
    expect(confirm).toHaveAccessibleDescription('パスワードが一致しません。');
    const consent = screen.getByRole('checkbox', {
      name: /利用規約とプライバシーポリシーに同意する/,
    });
    expect(consent).toHaveAttribute('aria-invalid', 'true');
    expect(consent).toHaveAccessibleDescription(new RegExp(TERMS_REQUIRED_MSG));
    // …the focus is on the first of them, and nothing was sent.
    expect(confirm).toHaveFocus();
    expect(apiCalls).toHaveLength(1); // only the code
  });

  it('still says so when the confirmation is left for another field', async () => {
    const { user } = renderRegistration(() => ok(createLoginResult()));
    await passMailAndCode(user);
    await user.type(await findField(/^パスワード必須/), 'fairway-birdie-77');
    await user.type(field(/パスワード（確認）/), 'fairway');
    await user.click(field(/^地域/));
    expect(field(/パスワード（確認）/)).toHaveAccessibleDescription(
      'パスワードが一致しません。',
    );
  });
});
