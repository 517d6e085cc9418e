import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TextField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { errorAlertRaised, alertDismissed } from '@/lib/ui-slice';
import { apiError } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { useValidatedForm } from '../use-validated-form';

type Values = { title: string; body: string };

const validate = (field: keyof Values, v: Values) =>
  v[field].trim() === ''
    ? field === 'title'
      ? 'タイトルを入力してください。'
      : '本文を入力してください。'
    : undefined;

type SaveResult = { data?: string; error?: unknown };

type TestFormProps = {
  save: (values: Values) => Promise<SaveResult>;
  onSaved: (saved: string, values: Values) => void;
};

const TestForm = ({ save, onSaved }: TestFormProps) => {
  const { errors, errorCount, serverError, idOf, bind, submit } =
    useValidatedForm<Values>({
      initialValues: () => ({ title: '', body: '' }),
      validate,
      fields: ['title', 'body'],
      checkOn: 'submit',
    });
  return (
    <form noValidate onSubmit={(e) => void submit(e, save, onSaved)}>
      <FormErrorSummary errorCount={errorCount} serverError={serverError} />
      <label htmlFor={idOf('title')}>タイトル</label>
      <input {...bind('title')} />
      {errors.title && <p>{errors.title}</p>}
      <label htmlFor={idOf('body')}>本文</label>
      <textarea {...bind('body')} />
      {errors.body && <p>{errors.body}</p>}
      <button type="submit">保存する</button>
    </form>
  );
};

describe('useValidatedForm', () => {
  it('counts the errors, focuses the first invalid field and does not save', async () => {
    const user = userEvent.setup();
    const save = vi.fn<TestFormProps['save']>();
    renderWithProviders(<TestForm save={save} onSaved={vi.fn()} />);
    await user.type(screen.getByLabelText('本文'), '本文です');
    await user.click(screen.getByRole('button', { name: '保存する' }));

    expect(screen.getByRole('alert')).toHaveTextContent(
      '入力内容に1件の誤りがあります。各項目をご確認ください。',
    );
    expect(screen.getByLabelText('タイトル')).toHaveFocus();
    expect(screen.getByLabelText('本文')).toHaveValue('本文です');
    expect(save).not.toHaveBeenCalled();

    // Fixing the field clears its message at once.
    await user.type(screen.getByLabelText('タイトル'), 'お知らせ');
    expect(screen.queryByText('タイトルを入力してください。')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('hands the saved data and the values to onSaved', async () => {
    const user = userEvent.setup();
    const save = vi.fn<TestFormProps['save']>().mockResolvedValue({
      data: 'n-1',
    });
    const onSaved = vi.fn();
    renderWithProviders(<TestForm save={save} onSaved={onSaved} />);
    await user.type(screen.getByLabelText('タイトル'), 'お知らせ');
    await user.type(screen.getByLabelText('本文'), '本文です');
    await user.click(screen.getByRole('button', { name: '保存する' }));

    const values = { title: 'お知らせ', body: '本文です' };
    expect(save).toHaveBeenCalledWith(values);
    expect(onSaved).toHaveBeenCalledWith('n-1', values);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's message, or a generic one, when the save fails", async () => {
    const user = userEvent.setup();
    const save = vi
      .fn<TestFormProps['save']>()
      .mockResolvedValueOnce({
        error: apiError('Conflict', {
          reqId: 'req-1',
          msg: '同じタイトルのお知らせがあります。',
        }),
      })
      .mockResolvedValueOnce({ error: new Error('offline') });
    const onSaved = vi.fn();
    renderWithProviders(<TestForm save={save} onSaved={onSaved} />);
    await user.type(screen.getByLabelText('タイトル'), 'お知らせ');
    await user.type(screen.getByLabelText('本文'), '本文です');

    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '同じタイトルのお知らせがあります。',
    );
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '保存できませんでした。時間をおいて再度お試しください。',
    );
    expect(onSaved).not.toHaveBeenCalled();
    // Input is kept for another try.
    expect(screen.getByLabelText('タイトル')).toHaveValue('お知らせ');
  });
});

type Passwords = { password: string; confirm: string };

const PasswordForm = ({ onValid }: { onValid: () => void }) => {
  const form = useValidatedForm<Passwords>({
    initialValues: { password: '', confirm: '' },
    fields: ['password', 'confirm'],
    validate: (field, v) =>
      field === 'password'
        ? v.password.length < 8
          ? '8文字以上で入力してください。'
          : undefined
        : v.confirm === v.password
          ? undefined
          : 'パスワードが一致しません。',
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (form.validateForm()) onValid();
        else form.markServerError('confirm', 'サーバーが拒否しました。');
      }}
    >
      <TextField
        label="パスワード"
        required
        error={form.errors.password}
        {...form.bind('password')}
      />
      <TextField
        label="確認"
        required
        error={form.errors.confirm}
        {...form.bind('confirm')}
      />
      <button type="submit">送信</button>
      <button type="button">下書き</button>
    </form>
  );
};

/** A blur of `from` as the focus goes to `to`. */
const leave = (from: HTMLElement, to: HTMLElement) => {
  fireEvent.blur(from, { relatedTarget: to });
};

describe('useValidatedForm, checked on blur', () => {
  it('leaves an untouched field alone and checks a typed one when it is left', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PasswordForm onValid={vi.fn()} />);
    const password = screen.getByRole('textbox', { name: /パスワード/ });
    await user.click(password);
    await user.tab();
    expect(password).not.toHaveAttribute('aria-invalid');

    await user.type(password, 'short');
    await user.tab();
    expect(password).toHaveAccessibleDescription(
      '8文字以上で入力してください。',
    );
  });

  it('checks a shown error again when another field changes', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PasswordForm onValid={vi.fn()} />);
    const password = screen.getByRole('textbox', { name: /パスワード/ });
    const confirm = screen.getByRole('textbox', { name: /確認/ });
    await user.type(password, 'long-password');
    await user.type(confirm, 'long-passwor');
    await user.click(password);
    expect(confirm).toHaveAccessibleDescription('パスワードが一致しません。');

    // Shortening the password makes the confirmation right: its error goes.
    await user.type(password, '{Backspace}');
    expect(confirm).not.toHaveAttribute('aria-invalid');
  });

  it("leaves the check to the send when the field is left for its form's submit button", async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    renderWithProviders(
      <>
        <PasswordForm onValid={onValid} />
        <form>
          <button type="submit">別のフォーム</button>
        </form>
      </>,
    );
    const password = screen.getByRole('textbox', { name: /パスワード/ });
    const confirm = screen.getByRole('textbox', { name: /確認/ });
    const send = screen.getByRole('button', { name: '送信' });
    await user.type(password, 'long-password');
    await user.type(confirm, 'long-passwor');

    // No message yet: it would move the button from under the pointer.
    leave(confirm, send);
    expect(confirm).not.toHaveAttribute('aria-invalid');
    // Another button of the form, or another form's submit button, is
    // an ordinary leave.
    leave(confirm, screen.getByRole('button', { name: '下書き' }));
    expect(confirm).toHaveAccessibleDescription('パスワードが一致しません。');
    await user.type(confirm, 'd');
    expect(confirm).not.toHaveAttribute('aria-invalid');
    await user.type(confirm, 'x');
    leave(confirm, screen.getByRole('button', { name: '別のフォーム' }));
    expect(confirm).toHaveAccessibleDescription('パスワードが一致しません。');

    // The send itself checks every field.
    await user.click(send);
    expect(confirm).toHaveFocus();
    expect(onValid).not.toHaveBeenCalled();
  });

  it('focuses a field the server rejected once the エラー alert is acknowledged', async () => {
    const user = userEvent.setup();
    const { store } = renderWithProviders(<PasswordForm onValid={vi.fn()} />);
    act(() => {
      store.dispatch(
        errorAlertRaised(apiError('ValidationError', { reqId: 'r-1' })),
      );
    });
    // Invalid on submit: the hook marks `confirm` as the server would.
    await user.click(screen.getByRole('button', { name: '送信' }));
    const confirm = screen.getByRole('textbox', { name: /確認/ });
    expect(confirm).toHaveAccessibleDescription('サーバーが拒否しました。');
    expect(confirm).not.toHaveFocus();

    act(() => {
      store.dispatch(alertDismissed());
    });
    await vi.waitFor(() => expect(confirm).toHaveFocus());
  });
});
