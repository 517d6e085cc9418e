import { TERMS_VERSION } from '@proam/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { createAuthUser, createLoginResult } from '@/testing/auth';
import { apiCalls, bodyOf, ng, ok, serveOk } from '@/testing/msw';
import { tokenReceived } from '../auth-slice';
import { TERMS_REQUIRED_MSG } from '../auth-validation';
import {
  field,
  findField,
  passMailAndCode,
  renderMemberPage,
  renderRegistration,
} from './auth-helpers';

beforeEach(() => {
  localStorage.clear();
});

const consent = () =>
  screen.getByRole('checkbox', {
    name: /利用規約とプライバシーポリシーに同意する/,
  });

/** Steps 1 and 2, then the profile filled in without the agreement. */
const fillProfile = async (user: ReturnType<typeof userEvent.setup>) => {
  await passMailAndCode(user);
  await user.type(await findField(/^氏名/), '山田 太郎');
  await user.type(field(/^ふりがな/), 'やまだ たろう');
  await user.click(screen.getByRole('radio', { name: /アマチュア会員/ }));
  await user.type(field(/^パスワード必須/), 'fairway-birdie-77');
  await user.type(field(/パスワード（確認）/), 'fairway-birdie-77');
};

describe('registration asks for the agreement', () => {
  it('refuses to send without the checkbox, says why on the box and keeps what was typed', async () => {
    const { user, store } = renderRegistration(() => ok(createLoginResult()));
    await fillProfile(user);
    await user.click(screen.getByRole('button', { name: '登録する' }));
    expect(consent()).toHaveAttribute('aria-invalid', 'true');
    expect(consent()).toHaveAccessibleDescription(
      new RegExp(TERMS_REQUIRED_MSG),
    );
    expect(consent()).toHaveFocus();
    expect(apiCalls).toHaveLength(1); // only the code was sent
    expect(field(/^氏名/)).toHaveValue('山田 太郎');
    expect(field(/^パスワード必須/)).toHaveValue('fairway-birdie-77');

    // The texts open in a new tab, so the form stays as typed.
    for (const name of [/^利用規約/, /^プライバシーポリシー/]) {
      const link = screen.getByRole('link', { name });
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    }
    expect(screen.getByRole('link', { name: /^利用規約/ })).toHaveAttribute(
      'href',
      '#/terms',
    );

    await user.click(consent());
    expect(consent()).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: '登録する' }));
    await waitFor(() =>
      expect(store.getState().auth.status).toBe('authenticated'),
    );
    expect(await bodyOf(1)).toMatchObject({ termsVersion: TERMS_VERSION });
  });

  it('marks the box again when the server refuses the version (an old page)', async () => {
    const { user } = renderRegistration(() =>
      ng('ValidationError', {
        msg: '入力内容に誤りがあります。（termsVersion）',
      }),
    );
    await fillProfile(user);
    await user.click(consent());
    await user.click(screen.getByRole('button', { name: '登録する' }));
    await waitFor(() =>
      expect(consent()).toHaveAccessibleDescription(/利用規約が改定されました/),
    );
    expect(consent()).not.toBeChecked();
    expect(field(/^氏名/)).toHaveValue('山田 太郎');
  });
});

const memberArea = (termsAccepted: boolean | undefined) => {
  const store = makeStore();
  store.dispatch(
    tokenReceived(
      createLoginResult({
        user: createAuthUser(
          termsAccepted === undefined ? {} : { termsAccepted },
        ),
      }),
    ),
  );
  return renderMemberPage('/tabs/schedule', store);
};

describe('the agreement after login', () => {
  it('blocks the member area of a member who has not agreed, until 同意する is answered', async () => {
    serveOk({
      '/user/acceptTerms': (body: { version: string }) => ({
        version: body.version,
        acceptedAt: '2026-12-01T00:00:00.000Z',
      }),
    });
    const user = userEvent.setup();
    const { store } = memberArea(false);
    const dialog = screen.getByRole('dialog', {
      name: '利用規約への同意のお願い',
    });
    expect(dialog).toHaveAttribute('open');
    expect(screen.queryByText('会員ページの中身')).toBeNull();
    expect(screen.getByRole('link', { name: /^利用規約/ })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(
      screen.getByRole('link', { name: /^プライバシーポリシー/ }),
    ).toHaveAttribute('href', '#/privacy');
    await user.click(screen.getByRole('button', { name: '同意する' }));
    expect(await screen.findByText('会員ページの中身')).toBeInTheDocument();
    expect(await bodyOf('/user/acceptTerms')).toEqual({
      version: TERMS_VERSION,
    });
    expect(store.getState().auth.user).toMatchObject({ termsAccepted: true });
  });

  it('stays closed when the agreement fails, and ログアウト leaves', async () => {
    serveOk({ '/auth/logout': () => ({ loggedOut: true }) }, () =>
      ng('Conflict'),
    );
    const user = userEvent.setup();
    const { store } = memberArea(false);
    await user.click(screen.getByRole('button', { name: '同意する' }));
    await waitFor(() =>
      expect(store.getState().ui.alerts[0]).toMatchObject({
        code: 'Conflict',
      }),
    );
    expect(screen.queryByText('会員ページの中身')).toBeNull();
    // ログアウト waits while 同意する's call is still settling (a click on a
    // disabled button does nothing): pressed once it can be.
    const leave = screen.getByRole('button', { name: 'ログアウト' });
    await waitFor(() => expect(leave).toBeEnabled());
    await user.click(leave);
    expect(await screen.findByText('ログインフォーム')).toBeInTheDocument();
    expect(store.getState().auth.status).toBe('loggedOut');
  });

  it('says to reload when the server has newer terms than this page', async () => {
    serveOk({}, () =>
      ng('ValidationError', { msg: '入力内容に誤りがあります。（version）' }),
    );
    const user = userEvent.setup();
    memberArea(false);
    await user.click(screen.getByRole('button', { name: '同意する' }));
    expect(
      await screen.findByText(/利用規約が改定されています/),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '再読み込み' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('会員ページの中身')).toBeNull();
  });

  it('lets in a member who agreed', () => {
    memberArea(true);
    expect(screen.getByText('会員ページの中身')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lets in a server without the field (older API) as before', () => {
    memberArea(undefined);
    expect(screen.getByText('会員ページの中身')).toBeInTheDocument();
  });
});
