import {
  NewsCreateInputSchema,
  type News,
  type NewsCreateInput,
} from '@proam/contract';
import { charCount, maxLengthOf, textLength } from '@/lib/contract-limits';
import {
  groupDigits,
  japanLocalInputToIso,
  toJapanLocalInput,
} from '@/lib/format';

export type NewsValues = {
  title: string;
  category: string;
  body: string;
  imageUrl: string;
  /** `YYYY-MM-DDTHH:mm` in Japan time; empty means "now". */
  publishedAt: string;
};

export type NewsField = keyof NewsValues;
type NewsErrors = Partial<Record<NewsField, string>>;

export const NEWS_FIELDS: readonly NewsField[] = [
  'title',
  'category',
  'body',
  'imageUrl',
  'publishedAt',
];

const input = NewsCreateInputSchema.properties;
export const TITLE_MAX = maxLengthOf(input.title);
export const CATEGORY_MAX = maxLengthOf(input.category);
export const BODY_MAX = maxLengthOf(input.body);
const IMAGE_URL_MAX = maxLengthOf(input.imageUrl);

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

export const validateNews = (v: NewsValues): NewsErrors => {
  const e: NewsErrors = {};
  if (v.title.trim() === '') e.title = 'タイトルを入力してください。';
  else if (textLength(v.title) > TITLE_MAX)
    e.title = `タイトルは${TITLE_MAX}文字以内で入力してください。`;
  if (textLength(v.category) > CATEGORY_MAX)
    e.category = `カテゴリは${CATEGORY_MAX}文字以内で入力してください。`;
  if (v.body.trim() === '') e.body = '本文を入力してください。';
  else if (textLength(v.body) > BODY_MAX)
    e.body = `本文は${groupDigits(BODY_MAX)}文字以内で入力してください。`;
  const url = v.imageUrl.trim();
  if (url !== '' && (charCount(url) > IMAGE_URL_MAX || !IMAGE_URL_RE.test(url)))
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
