import { TERMS_VERSION } from '@proam/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLoginResult } from '@/testing/auth';
import { apiCalls, bodyOf, ng, ok, serveInOrder } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { LoginForm } from '../components/login-form';
import {
  field,
  findField,
  passMailAndCode,
  renderRegistration,
} from './auth-helpers';

beforeEach(() => {
  localStorage.clear();
});

describe('login form', () => {
  it('requires both fields, describes the errors and focuses the first', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginForm />);
    await user.click(screen.getByRole('button', { name: 'ログイン' }));
    const email = field(/メールアドレス/);
    const password = field(/^パスワード/);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(
      'メールアドレスを入力してください。',
    );
    expect(password).toHaveAccessibleDescription(
      'パスワードを入力してください。',
    );
    expect(email).toHaveFocus();
    expect(apiCalls).toHaveLength(0);
  });

  it('rejects a malformed address', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginForm />);
    await user.type(field(/メールアドレス/), 'taro@');
    await user.type(field(/^パスワード/), 'x');
    await user.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(field(/メールアドレス/)).toHaveAccessibleDescription(
      /形式が正しくありません/,
    );
    expect(apiCalls).toHaveLength(0);
  });

  it('shows and hides the password', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginForm />);
    const password = field(/^パスワード/);
    expect(password).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: 'パスワードを表示' });
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('logs in with the trimmed address and keeps the input after InvalidCredentials', async () => {
    serveInOrder(
      () => ng('InvalidCredentials'),
      () => ok(createLoginResult()),
    );
    const user = userEvent.setup();
    const { store } = renderWithProviders(<LoginForm />);
    await user.type(field(/メールアドレス/), ' ama1@example.jp ');
    await user.type(field(/^パスワード/), 'wrong-pass');
    await user.click(screen.getByRole('button', { name: 'ログイン' }));
    await waitFor(() =>
      expect(store.getState().ui.alerts[0]).toMatchObject({
        code: 'InvalidCredentials',
      }),
    );
    expect(await bodyOf(0)).toEqual({
      mail: 'ama1@example.jp',
      password: 'wrong-pass',
    });
    expect(field(/メールアドレス/)).toHaveValue('ama1@example.jp');
    expect(field(/^パスワード/)).toHaveValue('wrong-pass');
    expect(store.getState().auth.status).toBe('anonymous');

    await user.click(screen.getByRole('button', { name: 'ログイン' }));
    await waitFor(() =>
      expect(store.getState().auth.status).toBe('authenticated'),
    );
  });
});

describe('registration form', () => {
  it('walks mail → code → profile and registers with what was typed', async () => {
    const { user, store } = renderRegistration(() => ok(createLoginResult()));

    // Step 1
    await user.click(screen.getByRole('button', { name: '認証コードを送信' }));
    expect(field(/メールアドレス/)).toHaveAttribute('aria-invalid', 'true');
    await user.type(field(/メールアドレス/), 'new@example.jp');
    await user.click(screen.getByRole('button', { name: '認証コードを送信' }));
    expect(await bodyOf(0)).toEqual({ email: 'new@example.jp' });

    // Step 2
    const code = await findField(/認証コード/);
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '12a45');
    await user.click(screen.getByRole('button', { name: '次へ' }));
    expect(code).toHaveAccessibleDescription(
      '認証コードは6桁の半角数字で入力してください。',
    );
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: '次へ' }));

    // Step 3
    await user.click(await screen.findByRole('button', { name: '登録する' }));
    for (const [label, message] of [
      [/^氏名/, '氏名を入力してください。'],
      [/^ふりがな/, 'ふりがなを入力してください。'],
      [/^パスワード必須/, 'パスワードを入力してください。'],
    ] as const) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(
        new RegExp(message),
      );
    }
    expect(field(/^氏名/)).toHaveFocus();
    expect(
      screen.getByText('会員種別を選択してください。'),
    ).toBeInTheDocument();

    await user.type(field(/^氏名/), '山田 太郎');
    await user.type(field(/^ふりがな/), 'やまだ たろう');
    await user.click(screen.getByRole('radio', { name: /アマチュア会員/ }));
    await user.type(field(/^パスワード必須/), 'short');
    await user.type(field(/パスワード（確認）/), 'shorter');
    await user.click(screen.getByRole('button', { name: '登録する' }));
    expect(field(/^パスワード必須/)).toHaveAccessibleDescription(
      /8文字以上128文字以内/,
    );
    expect(field(/パスワード（確認）/)).toHaveAccessibleDescription(
      /一致しません/,
    );
    expect(apiCalls).toHaveLength(1);

    await user.clear(field(/^パスワード必須/));
    await user.type(field(/^パスワード必須/), 'fairway-birdie-77');
    await user.clear(field(/パスワード（確認）/));
    await user.type(field(/パスワード（確認）/), 'fairway-birdie-77');
    await user.selectOptions(field(/^地域/), '千葉県');
    await user.click(
      screen.getByRole('checkbox', {
        name: /利用規約とプライバシーポリシーに同意する/,
      }),
    );
    await user.click(screen.getByRole('button', { name: '登録する' }));
    await waitFor(() =>
      expect(store.getState().auth.status).toBe('authenticated'),
    );
    expect(await bodyOf(1)).toEqual({
      email: 'new@example.jp',
      code: '123456',
      password: 'fairway-birdie-77',
      userName: '山田 太郎',
      type: 'amature',
      nameKana: 'やまだ たろう',
      area: '千葉県',
      termsVersion: TERMS_VERSION,
    });
  });

  it('goes back to the code step, keeping the profile, when the server rejects the code', async () => {
    const { user, store } = renderRegistration(() => ng('InvalidCode'));
    await passMailAndCode(user, '000000');
    await user.type(await findField(/^氏名/), '山田 太郎');
    await user.type(field(/^ふりがな/), 'やまだ');
    await user.click(screen.getByRole('radio', { name: /プロ会員/ }));
    await user.type(field(/^パスワード必須/), 'fairway-birdie-77');
    await user.type(field(/パスワード（確認）/), 'fairway-birdie-77');
    await user.click(screen.getByRole('checkbox', { name: /同意する/ }));
    await user.click(screen.getByRole('button', { name: '登録する' }));
    const code = await findField(/認証コード/);
    expect(code).toHaveValue('000000');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(store.getState().ui.alerts[0]).toMatchObject({
      code: 'InvalidCode',
    });
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: '次へ' }));
    expect(await findField(/^氏名/)).toHaveValue('山田 太郎');
  });
});
