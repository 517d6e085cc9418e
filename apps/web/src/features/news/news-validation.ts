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
  /**
   * `YYYY-MM-DDTHH:mm` in Japan time. Empty: a new item is published when it
   * is saved, an edited one keeps its time (see toNewsInput).
   */
  publishedAt: string;
};

/** What the form knows beside the values' text. */
export type NewsCheck = {
  /**
   * The browser holds a 公開日時 typed only in part (`validity.badInput`):
   * it reports the value as empty, which must not pass for "now".
   */
  publishedAtIncomplete?: boolean;
  /** 今すぐ公開する is chosen: the 公開日時 field is not used. */
  publishNow?: boolean;
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

/**
 * Where a news image may come from. The page's Content-Security-Policy
 * (apps/api/src/plugins/security-headers.ts) lets images load only from the
 * site itself, `data:`, `blob:` and the origin of MEDIA_BASE_URL; the API
 * takes `/media/…` or any `https://…`. The web is not told MEDIA_BASE_URL
 * (config/env.ts has no such setting), so only the site's own media path is
 * accepted: an image on another host would be stored and never shown.
 */
export const MEDIA_PATH = '/media/';

const IMAGE_URL_CHARS = /^[^\s"<>\\]+$/;

/**
 * `/media/…` that stays under /media/ once the browser resolves it (no
 * `..`, `%2e%2e` or `//host` leading elsewhere).
 */
export const isMediaImageUrl = (url: string): boolean => {
  if (!url.startsWith(MEDIA_PATH) || !IMAGE_URL_CHARS.test(url)) return false;
  try {
    const base = 'https://site.invalid';
    const resolved = new URL(url, base);
    return (
      resolved.origin === base &&
      resolved.pathname.startsWith(MEDIA_PATH) &&
      resolved.pathname.length > MEDIA_PATH.length
    );
  } catch {
    return false;
  }
};

export const IMAGE_URL_MESSAGE =
  '画像は /media/ で始まるURL（メディアにアップロードした画像）を指定してください。';

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

export const validateNews = (
  v: NewsValues,
  check: NewsCheck = {},
): NewsErrors => {
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
  if (url !== '' && !isMediaImageUrl(url)) e.imageUrl = IMAGE_URL_MESSAGE;
  else if (charCount(url) > IMAGE_URL_MAX)
    e.imageUrl = `画像URLは${IMAGE_URL_MAX}文字以内で入力してください。`;
  if (check.publishNow) return e;
  if (check.publishedAtIncomplete)
    e.publishedAt = '公開日時を最後まで入力してください。';
  else if (v.publishedAt.trim() !== '' && !japanLocalInputToIso(v.publishedAt))
    e.publishedAt = '公開日時を正しい日時で入力してください。';
  return e;
};

/**
 * Valid values → the body of `/news/create` (or `/news/update` with an id).
 * `publishNow` (今すぐ公開する) sends that instant. Otherwise an empty
 * 公開日時 is left out: the server publishes a new item at once and keeps an
 * edited item's time, so a scheduled item never goes public by a blank field.
 */
export const toNewsInput = (
  v: NewsValues,
  publishNow?: Date,
): NewsCreateInput => {
  const input: NewsCreateInput = {
    title: v.title.trim(),
    body: v.body.trim(),
    category: v.category.trim(),
    imageUrl: v.imageUrl.trim(),
  };
  const at = v.publishedAt.trim() ? japanLocalInputToIso(v.publishedAt) : null;
  if (publishNow) input.publishedAt = publishNow.toISOString();
  else if (at) input.publishedAt = at;
  return input;
};

/** The label of each field, for what the server refuses (`（body）` → 本文). */
export const NEWS_LABELS: Record<NewsField, string> = {
  title: 'タイトル',
  category: 'カテゴリ',
  body: '本文',
  imageUrl: '画像URL',
  publishedAt: '公開日時',
};

/** Scheduled: published in the future, hidden from the public until then. */
export const isScheduled = (n: Pick<News, 'publishedAt'>, now = Date.now()) =>
  Date.parse(n.publishedAt) > now;
