import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  apiCalls,
  bodyOf,
  networkError,
  ng,
  ok,
  requestAt,
  serveAll,
} from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ContactForm } from '../components/contact-form';

const field = (name: RegExp) => screen.getByRole('textbox', { name });

/** A valid inquiry: what fillValid types, and so what the form sends. */
const VALID = {
  name: '山田 花子',
  email: 'hanako@example.jp',
  phone: '03-1234-5678',
  category: 'プロ会員について',
  message: 'プロ会員の登録条件を教えてください。',
};

const fillValid = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.type(field(/お名前/), VALID.name);
  await user.type(field(/メールアドレス/), VALID.email);
  await user.type(
    screen.getByRole('textbox', { name: /電話番号/ }),
    VALID.phone,
  );
  await user.selectOptions(
    screen.getByRole('combobox', { name: /お問い合わせ種別/ }),
    VALID.category,
  );
  await user.type(field(/お問い合わせ内容/), VALID.message);
};

describe('contact form', () => {
  it('shows a Japanese message beside each invalid field on submit and focuses the first', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await user.click(screen.getByRole('button', { name: '送信する' }));

    const name = field(/お名前/);
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('お名前を入力してください。');
    expect(name).toHaveFocus();
    expect(field(/メールアドレス/)).toHaveAccessibleDescription(
      /メールアドレスを入力してください。/,
    );
    expect(
      screen.getByRole('combobox', { name: /お問い合わせ種別/ }),
    ).toHaveAccessibleDescription('お問い合わせ種別を選択してください。');
    expect(field(/お問い合わせ内容/)).toHaveAccessibleDescription(
      /お問い合わせ内容を入力してください。/,
    );
    // The phone number is optional, so an empty one is not an error.
    expect(
      screen.getByRole('textbox', { name: /電話番号/ }),
    ).not.toHaveAttribute('aria-invalid');
    expect(apiCalls).toHaveLength(0);
  });

  it('validates a field when it loses focus', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await user.type(field(/メールアドレス/), 'not-an-address');
    await user.tab();
    expect(field(/メールアドレス/)).toHaveAttribute('aria-invalid', 'true');
    expect(
      screen.getByText(/メールアドレスの形式が正しくありません/),
    ).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /電話番号/ }), 'abc');
    await user.tab();
    expect(
      screen.getByText(/電話番号は半角数字とハイフンで/),
    ).toBeInTheDocument();
  });

  it('counts the message characters against the 2000 limit', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await user.type(field(/お問い合わせ内容/), 'こんにちは');
    expect(screen.getByText('5 / 2000文字')).toBeInTheDocument();
  });

  it('counts 𠮷 and emoji as one character each, as the server does', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await user.click(field(/お問い合わせ内容/));
    await user.paste('𠮷野家😀');
    expect(screen.getByText('4 / 2000文字')).toBeInTheDocument();
  });

  it('explains a message over the limit in Japanese and sends nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await fillValid(user);
    const message = field(/お問い合わせ内容/);
    await user.clear(message);
    await user.click(message);
    await user.paste('𠮷'.repeat(2001));
    expect(screen.getByText('2001 / 2000文字')).toHaveClass('is-over');
    await user.click(screen.getByRole('button', { name: '送信する' }));

    expect(message).toHaveAttribute('aria-invalid', 'true');
    expect(message).toHaveAccessibleDescription(
      'お問い合わせ内容は2000文字以内で入力してください。 2001 / 2000文字',
    );
    expect(message).toHaveFocus();
    expect(apiCalls).toHaveLength(0);

    // Back at the limit, the message goes as the text is corrected.
    await user.type(message, '{Backspace}{Backspace}');
    expect(screen.getByText('2000 / 2000文字')).not.toHaveClass('is-over');
    expect(message).not.toHaveAttribute('aria-invalid');
  });

  it('keeps what was typed and shows the server message after a ValidationError', async () => {
    serveAll(() =>
      ng('ValidationError', {
        reqId: 'r1',
        msg: '入力内容に誤りがあります。（email）',
      }),
    );
    const user = userEvent.setup();
    const { store } = renderWithProviders(<ContactForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: '送信する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      '入力内容に誤りがあります。（email）',
    );
    expect(field(/お名前/)).toHaveValue('山田 花子');
    expect(field(/メールアドレス/)).toHaveValue('hanako@example.jp');
    expect(field(/メールアドレス/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/お問い合わせ内容/)).toHaveValue(
      'プロ会員の登録条件を教えてください。',
    );
    expect(
      screen.getByRole('combobox', { name: /お問い合わせ種別/ }),
    ).toHaveValue('プロ会員について');
    // The global エラー alert is raised as well.
    expect(store.getState().ui.alerts[0]).toMatchObject({
      code: 'ValidationError',
    });
  });

  it('keeps what was typed after a network failure', async () => {
    serveAll(networkError);
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: '送信する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '通信に失敗しました',
    );
    expect(field(/お名前/)).toHaveValue('山田 花子');
  });

  it('sends the trimmed input and shows the thank-you state', async () => {
    serveAll(() => ok({ received: true }));
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: '送信する' }));

    expect(
      await screen.findByRole('heading', {
        name: 'お問い合わせありがとうございました',
      }),
    ).toBeInTheDocument();
    expect(new URL(requestAt(0).url).pathname).toBe('/api/contact/create');
    expect(await bodyOf(0)).toEqual(VALID);
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: '送信する' }),
      ).not.toBeInTheDocument(),
    );
  });
});
