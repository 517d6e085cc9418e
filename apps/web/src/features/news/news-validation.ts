import type { News, NewsCreateInput } from '@proam/contract';
import { japanLocalInputToIso, toJapanLocalInput } from '@/lib/format';

export type NewsValues = {
  title: string;
  category: string;
  body: string;
  imageUrl: string;
  /** `YYYY-MM-DDTHH:mm` in Japan time; empty means "now". */
  publishedAt: string;
};

export type NewsField = keyof NewsValues;
export type NewsErrors = Partial<Record<NewsField, string>>;

export const NEWS_FIELDS: readonly NewsField[] = [
  'title',
  'category',
  'body',
  'imageUrl',
  'publishedAt',
];

export const TITLE_MAX = 120;
export const CATEGORY_MAX = 30;
export const BODY_MAX = 10_000;

const IMAGE_URL_RE = /^(https:\/\/|\/media\/)[^\s"<>]*$/;

export const emptyNewsValues = (): NewsValues => ({
  title: '',
  category: '',
  body: '',
  imageUrl: '',
  publishedAt: '',
});

export const valuesFromNews = (n: News): NewsValues => ({
  title: n.title,
  category: n.category ?? '',
  body: n.body,
  imageUrl: n.imageUrl ?? '',
  publishedAt: toJapanLocalInput(n.publishedAt),
});

const length = (v: string) => [...v.trim()].length;

export const validateNews = (v: NewsValues): NewsErrors => {
  const e: NewsErrors = {};
  if (v.title.trim() === '') e.title = 'タイトルを入力してください。';
  else if (length(v.title) > TITLE_MAX)
    e.title = `タイトルは${TITLE_MAX}文字以内で入力してください。`;
  if (length(v.category) > CATEGORY_MAX)
    e.category = `カテゴリは${CATEGORY_MAX}文字以内で入力してください。`;
  if (v.body.trim() === '') e.body = '本文を入力してください。';
  else if ([...v.body].length > BODY_MAX)
    e.body = `本文は${BODY_MAX.toLocaleString('ja-JP')}文字以内で入力してください。`;
  const url = v.imageUrl.trim();
  if (url !== '' && (url.length > 500 || !IMAGE_URL_RE.test(url)))
    e.imageUrl =
      '画像URLは「https://」または「/media/」で始まるURLを入力してください。';
  if (v.publishedAt.trim() !== '' && !japanLocalInputToIso(v.publishedAt))
    e.publishedAt = '公開日時を正しい日時で入力してください。';
  return e;
};

/**
 * Valid values → the body of `/news/create` (or `/news/update` with an id).
 * An empty 公開日時 means "now": left out (the server's clock decides) unless
 * `now` is given, which an update passes so the item is published at once.
 */
export const toNewsInput = (v: NewsValues, now?: Date): NewsCreateInput => {
  const input: NewsCreateInput = {
    title: v.title.trim(),
    body: v.body.trim(),
    category: v.category.trim(),
    imageUrl: v.imageUrl.trim(),
  };
  const at = v.publishedAt.trim() ? japanLocalInputToIso(v.publishedAt) : null;
  if (at) input.publishedAt = at;
  else if (now) input.publishedAt = now.toISOString();
  return input;
};

/** Scheduled: published in the future, hidden from the public until then. */
export const isScheduled = (n: Pick<News, 'publishedAt'>, now = Date.now()) =>
  Date.parse(n.publishedAt) > now;
