import type { News } from '@proam/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatInstantDateTime, toJapanLocalInput } from '@/lib/format';
import { alertDismissed } from '@/lib/ui-slice';
import { apiCalls, bodiesOf, ng, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { NewsEditor } from '../components/news-editor';

const DAY = 24 * 3600_000;
/** A whole minute a week ahead: what a datetime-local field can hold. */
const nextWeek = new Date(
  Math.floor((Date.now() + 7 * DAY) / 60_000) * 60_000,
).toISOString();

const article = (overrides: Partial<News> = {}): News => ({
  id: 'n-1',
  title: '秋のプロアム大会のお知らせ',
  body: '参加者を募集します。',
  category: '大会',
  publishedAt: nextWeek,
  ...overrides,
});

/** The news API echoing what it is sent, over `saved`. */
const serveNews = (saved: News = article()) =>
  serveApi({
    '/news/create': (body: Partial<News>) =>
      ok({
        ...saved,
        id: 'n-2',
        publishedAt: new Date().toISOString(),
        ...body,
      }),
    '/news/update': (body: Partial<News>) => ok({ ...saved, ...body }),
  });

const renderEditor = (news?: News) => {
  const onDone = vi.fn();
  const view = renderWithProviders(
    <NewsEditor news={news} onDone={onDone} onCancel={vi.fn()} />,
  );
  return { onDone, ...view };
};

const publishedAtField = () =>
  screen.getByLabelText(/公開日時/, { selector: 'input' });

/**
 * What a desktop browser reports of a datetime-local half typed (a date
 * without its time, or one segment cleared): an empty value, with
 * `validity.badInput` set. jsdom knows no partial input, so it is told.
 */
const halfType = (input: HTMLElement) => {
  Object.defineProperty(input, 'validity', {
    configurable: true,
    get: () => ({ badInput: true, valid: false }) as ValidityState,
  });
  fireEvent.change(input, { target: { value: '' } });
};

const save = (name: RegExp | string) =>
  userEvent.click(screen.getByRole('button', { name }));

describe('news editor: 公開日時', () => {
  it('refuses a half-typed time on a new item instead of publishing it now', async () => {
    serveNews();
    renderEditor();
    await userEvent.type(screen.getByLabelText(/タイトル/), '新着');
    await userEvent.type(screen.getByLabelText(/本文/), '本文です。');
    halfType(publishedAtField());
    await save('公開する');
    expect(publishedAtField()).toHaveAccessibleDescription(
      expect.stringContaining('公開日時を最後まで入力してください。'),
    );
    expect(publishedAtField()).toHaveFocus();
    // What was typed stays.
    expect(screen.getByLabelText(/タイトル/)).toHaveValue('新着');
    expect(apiCalls).toHaveLength(0);
  });

  it('refuses a half-typed time on a scheduled item instead of publishing it now', async () => {
    serveNews();
    renderEditor(article());
    expect(publishedAtField()).toHaveValue(toJapanLocalInput(nextWeek));
    halfType(publishedAtField());
    await save(/予約投稿する|保存する/);
    expect(
      await screen.findByText('公開日時を最後まで入力してください。'),
    ).toBeInTheDocument();
    expect(publishedAtField()).toHaveFocus();
    expect(apiCalls).toHaveLength(0);
  });

  it('keeps the scheduled time when the field of a scheduled item is emptied, and says so', async () => {
    serveNews();
    const { onDone } = renderEditor(article());
    await userEvent.clear(publishedAtField());
    const when = formatInstantDateTime(nextWeek);
    expect(publishedAtField()).toHaveAccessibleDescription(
      `空欄のまま保存すると、予約どおり${when}に公開されます。すぐに公開するには「今すぐ公開する」にチェックを入れてください。`,
    );
    await save('予約投稿する');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [sent] = bodiesOf('/news/update');
    expect(sent).not.toHaveProperty('publishedAt');
    expect(onDone).toHaveBeenCalledWith(
      `「秋のプロアム大会のお知らせ」を保存しました。${when}に公開されます（予約投稿）。`,
    );
  });

  it('publishes a scheduled item at once only when 今すぐ公開する is chosen', async () => {
    serveNews();
    const { onDone } = renderEditor(article());
    const now = screen.getByRole('checkbox', { name: '今すぐ公開する' });
    expect(now).not.toBeChecked();
    await userEvent.click(now);
    expect(publishedAtField()).toBeDisabled();
    // The time typed before stays, should the admin change their mind.
    expect(publishedAtField()).toHaveValue(toJapanLocalInput(nextWeek));
    expect(now).toHaveAccessibleDescription(
      'チェックを入れて保存すると、予約を取り消してすぐに公開します（公開日時は保存した時刻になります）。',
    );
    const before = Date.now();
    await save('保存して公開する');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [sent] = bodiesOf('/news/update');
    const at = Date.parse(String(sent?.publishedAt));
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(onDone).toHaveBeenCalledWith(
      '「秋のプロアム大会のお知らせ」を保存しました。公開中です。',
    );
  });

  it('keeps the date of a published item whose field is emptied, and offers no 今すぐ公開する', async () => {
    const published = article({ publishedAt: '2026-01-05T01:00:00.000Z' });
    serveNews(published);
    const { onDone } = renderEditor(published);
    expect(screen.queryByRole('checkbox')).toBeNull();
    await userEvent.clear(publishedAtField());
    expect(publishedAtField()).toHaveAccessibleDescription(
      `空欄のまま保存すると、公開日時は変わりません（${formatInstantDateTime(published.publishedAt)}）。`,
    );
    await save('保存する');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(bodiesOf('/news/update')[0]).not.toHaveProperty('publishedAt');
  });
});

describe('news editor: 画像URL', () => {
  it('accepts only images the site may show (/media/…), as the hint says', async () => {
    serveNews();
    renderEditor(article());
    const url = screen.getByLabelText(/画像URL/);
    expect(url).toHaveAccessibleDescription(
      '/media/ で始まるURL（メディアにアップロードした画像）。ほかのサイトの画像はセキュリティ設定により表示されないため、指定できません。',
    );
    await userEvent.type(url, 'https://example.com/a.png');
    await save('予約投稿する');
    expect(url).toHaveAccessibleDescription(
      expect.stringContaining(
        '画像は /media/ で始まるURL（メディアにアップロードした画像）を指定してください。',
      ),
    );
    expect(url).toHaveValue('https://example.com/a.png');
    expect(apiCalls).toHaveLength(0);
  });
});

describe('news editor: server refusals', () => {
  it('names the field a ValidationError points at in Japanese, never its English name', async () => {
    serveApi({
      '/news/update': () =>
        ng('ValidationError', { msg: '入力内容に誤りがあります。（body）' }),
    });
    const { store } = renderEditor(article());
    await save('予約投稿する');
    const body = screen.getByLabelText(/本文/);
    await waitFor(() =>
      expect(body).toHaveAccessibleDescription(
        expect.stringContaining('本文の内容をご確認ください。'),
      ),
    );
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent('入力内容に1件の誤りがあります。');
    expect(summary).not.toHaveTextContent('body');
    expect(body).toHaveValue('参加者を募集します。');
    // Once the エラー alert is acknowledged, the field has the focus.
    act(() => {
      store.dispatch(alertDismissed());
    });
    await waitFor(() => expect(body).toHaveFocus());
  });
});
