import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FormErrorSummary } from '@/components/form-error-summary';
import { useValidatedForm } from '../use-validated-form';

type Values = { title: string; body: string };

const validate = (v: Values) => ({
  title: v.title.trim() === '' ? 'タイトルを入力してください。' : undefined,
  body: v.body.trim() === '' ? '本文を入力してください。' : undefined,
});

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
    });
  return (
    <form noValidate onSubmit={(e) => void submit(e, save, onSaved)}>
      <FormErrorSummary errorCount={errorCount} serverError={serverError} />
      <label htmlFor={idOf('title')}>タイトル</label>
      <input id={idOf('title')} {...bind('title')} />
      {errors.title && <p>{errors.title}</p>}
      <label htmlFor={idOf('body')}>本文</label>
      <textarea id={idOf('body')} {...bind('body')} />
      {errors.body && <p>{errors.body}</p>}
      <button type="submit">保存する</button>
    </form>
  );
};

describe('useValidatedForm', () => {
  it('counts the errors, focuses the first invalid field and does not save', async () => {
    const user = userEvent.setup();
    const save = vi.fn<TestFormProps['save']>();
    render(<TestForm save={save} onSaved={vi.fn()} />);
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
    render(<TestForm save={save} onSaved={onSaved} />);
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
        error: {
          status: 'NG',
          code: 'Conflict',
          reqId: 'req-1',
          msg: '同じタイトルのお知らせがあります。',
          httpStatus: 409,
        },
      })
      .mockResolvedValueOnce({ error: new Error('offline') });
    const onSaved = vi.fn();
    render(<TestForm save={save} onSaved={onSaved} />);
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
