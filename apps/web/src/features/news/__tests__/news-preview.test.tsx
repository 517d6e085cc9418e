import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NewsPreview } from '../components/news-preview';
import { newsParagraphs } from '../news-body';
import {
  emptyNewsValues,
  toNewsInput,
  validateNews,
  type NewsValues,
} from '../news-validation';

describe('newsParagraphs', () => {
  it('starts a paragraph at each blank line and keeps single line breaks', () => {
    expect(
      newsParagraphs('一段落目\n続き\n\n二段落目\r\n\r\n\n三段落目\n'),
    ).toEqual(['一段落目\n続き', '二段落目', '三段落目']);
  });

  it('ignores blank lines made of spaces and empty bodies', () => {
    expect(newsParagraphs('A\n  \nB')).toEqual(['A', 'B']);
    expect(newsParagraphs('\n\n  \n')).toEqual([]);
  });
});

/** The preview of a form filled in with `values`, the rest left empty. */
const renderPreview = (values: Partial<NewsValues>) =>
  render(<NewsPreview values={{ ...emptyNewsValues(), ...values }} />);

describe('news preview', () => {
  it('renders the body as paragraphs, as the public page does', () => {
    renderPreview({
      title: '秋のプロアム大会のお知らせ',
      category: '大会',
      body: '参加者を募集します。\n定員は40名です。\n\nお早めにお申し込みください。',
      publishedAt: '2026-11-22T09:30',
    });
    const preview = screen.getByRole('region', { name: 'プレビュー' });
    expect(
      within(preview).getByText('秋のプロアム大会のお知らせ'),
    ).toBeInTheDocument();
    expect(within(preview).getByText('大会')).toHaveClass('tag');
    expect(within(preview).getByText('2026年11月22日(日)')).toHaveAttribute(
      'datetime',
      '2026-11-22',
    );
    const paragraphs = preview.querySelectorAll('.article__body p');
    expect([...paragraphs].map((p) => p.textContent)).toEqual([
      '参加者を募集します。\n定員は40名です。',
      'お早めにお申し込みください。',
    ]);
  });

  it('shows markup in the body as text and never injects it', () => {
    const { container } = renderPreview({
      title: '<b>太字</b>',
      body: '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">',
      imageUrl: 'javascript:alert(3)',
    });
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    // No <img>: neither the body's markup nor an address the server would refuse.
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();
    expect(
      screen.getByText('<img src=x onerror="alert(2)">'),
    ).toBeInTheDocument();
  });

  it('shows the image for an accepted address', () => {
    const { container } = renderPreview({
      title: 'T',
      body: 'B',
      imageUrl: '/media/news/a.png',
    });
    expect(container.querySelector('img')).toHaveAttribute(
      'src',
      '/media/news/a.png',
    );
  });
});

describe('news validation', () => {
  it('asks for a title and body in Japanese and checks the image address', () => {
    expect(
      validateNews({
        ...emptyNewsValues(),
        imageUrl: 'http://example.com/a.png',
      }),
    ).toEqual({
      title: 'タイトルを入力してください。',
      body: '本文を入力してください。',
      imageUrl:
        '画像は /media/ で始まるURL（メディアにアップロードした画像）を指定してください。',
    });
  });

  it('takes images only from /media/, which the Content-Security-Policy lets load', () => {
    const imageError = (imageUrl: string) =>
      validateNews({ ...emptyNewsValues(), title: 'T', body: 'B', imageUrl })
        .imageUrl;
    expect(imageError('')).toBeUndefined();
    expect(imageError('/media/users/u-1/a.jpg')).toBeUndefined();
    expect(imageError(' /media/news/a.png ')).toBeUndefined();
    for (const url of [
      // Another host: the page's img-src never loads it.
      'https://example.com/a.png',
      'https://cdn.example.net/media/a.png',
      '//example.com/media/a.png',
      // Paths that leave /media/ once the browser resolves them.
      '/media/../api/user/read',
      '/media/%2e%2e/index.html',
      '/media/..\\index.html',
      '/media/',
      '/images/a.png',
      'javascript:alert(1)',
      '/media/a b.png',
    ])
      expect(imageError(url), url).toBe(
        '画像は /media/ で始まるURL（メディアにアップロードした画像）を指定してください。',
      );
    expect(imageError(`/media/${'a'.repeat(500)}`)).toBe(
      '画像URLは500文字以内で入力してください。',
    );
  });

  it('turns 公開日時 in Japan time into a UTC instant; empty is left out', () => {
    const base = { ...emptyNewsValues(), title: 'T', body: 'B' };
    expect(
      toNewsInput({ ...base, publishedAt: '2026-11-23T09:00' }).publishedAt,
    ).toBe('2026-11-23T00:00:00.000Z');
    // The server publishes a new item now and keeps an edited item's time.
    expect(toNewsInput(base)).not.toHaveProperty('publishedAt');
    // 今すぐ公開する: that instant, whatever the field holds.
    const now = new Date('2026-11-22T01:02:03.000Z');
    expect(toNewsInput(base, now).publishedAt).toBe('2026-11-22T01:02:03.000Z');
    expect(
      toNewsInput({ ...base, publishedAt: '2026-12-01T10:00' }, now)
        .publishedAt,
    ).toBe('2026-11-22T01:02:03.000Z');
  });

  it('refuses a half-typed 公開日時 unless 今すぐ公開する is chosen', () => {
    const base = { ...emptyNewsValues(), title: 'T', body: 'B' };
    expect(
      validateNews(base, { publishedAtIncomplete: true }).publishedAt,
    ).toBe('公開日時を最後まで入力してください。');
    expect(
      validateNews({ ...base, publishedAt: '2026-02-30T10:00' }).publishedAt,
    ).toBe('公開日時を正しい日時で入力してください。');
    expect(
      validateNews(base, { publishedAtIncomplete: true, publishNow: true })
        .publishedAt,
    ).toBeUndefined();
  });
});
