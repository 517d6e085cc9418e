import type { News } from '@proam/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Field } from '@/components/field';
import { useNow } from '@/hooks/use-now';
import { isApiError } from '@/lib/api-error';
import { formatInstantDateTime, japanLocalInputToIso } from '@/lib/format';
import { useCreateNewsMutation, useUpdateNewsMutation } from '../news-api';
import {
  BODY_MAX,
  CATEGORY_MAX,
  NEWS_FIELDS,
  TITLE_MAX,
  emptyNewsValues,
  toNewsInput,
  validateNews,
  valuesFromNews,
  type NewsErrors,
  type NewsField,
  type NewsValues,
} from '../news-validation';
import { NewsPreview } from './news-preview';

type NewsEditorProps = {
  /** Absent: a new item. */
  news?: News;
  onDone: (message: string) => void;
  onCancel: () => void;
};

type Control = HTMLInputElement | HTMLTextAreaElement;

/** Writes or edits one news item, with a live preview as the public page shows it. */
export const NewsEditor = ({ news, onDone, onCancel }: NewsEditorProps) => {
  const [values, setValues] = useState<NewsValues>(() =>
    news ? valuesFromNews(news) : emptyNewsValues(),
  );
  const [errors, setErrors] = useState<NewsErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [create, createState] = useCreateNewsMutation();
  const [update, updateState] = useUpdateNewsMutation();
  const busy = createState.isLoading || updateState.isLoading;
  const now = useNow();
  const baseId = useId();
  const refs = useRef<Partial<Record<NewsField, Control | null>>>({});
  const idOf = (f: NewsField) => `${baseId}-${f}`;

  const set = (field: NewsField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field])
      setErrors((prev) => ({ ...prev, [field]: validateNews(next)[field] }));
  };

  const bind = (field: NewsField) => ({
    name: field,
    value: values[field],
    onChange: (e: { target: { value: string } }) => set(field, e.target.value),
    ref: (el: Control | null) => {
      refs.current[field] = el;
    },
  });

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setServerError(null);
    const errs = validateNews(values);
    setErrors(errs);
    const first = NEWS_FIELDS.find((f) => errs[f]);
    if (first) {
      refs.current[first]?.focus();
      return;
    }
    const input = toNewsInput(values, news ? new Date() : undefined);
    const result = news
      ? await update({ id: news.id, ...input })
      : await create(input);
    if ('data' in result && result.data) {
      const saved = result.data;
      const scheduled = Date.parse(saved.publishedAt) > Date.now();
      onDone(
        `「${saved.title}」を${news ? '保存' : '作成'}しました。` +
          (scheduled
            ? `${formatInstantDateTime(saved.publishedAt)}に公開されます（予約投稿）。`
            : '公開中です。'),
      );
      return;
    }
    const err = 'error' in result ? result.error : undefined;
    setServerError(
      isApiError(err)
        ? err.msg
        : '保存できませんでした。時間をおいて再度お試しください。',
    );
  };

  const errorCount = Object.values(errors).filter(Boolean).length;
  const publishIso = values.publishedAt
    ? japanLocalInputToIso(values.publishedAt)
    : null;
  const willSchedule = publishIso !== null && Date.parse(publishIso) > now;

  return (
    <div className="news-editor">
      <form
        className="admin-form news-editor__form"
        noValidate
        onSubmit={(e) => void submit(e)}
      >
        <h2 className="admin-form__title" tabIndex={-1}>
          {news ? 'お知らせを編集' : 'お知らせを作成'}
        </h2>
        {(errorCount > 0 || serverError) && (
          <div className="form-alert" role="alert">
            {errorCount > 0 && (
              <p>
                入力内容に{errorCount}
                件の誤りがあります。各項目をご確認ください。
              </p>
            )}
            {serverError && <p>{serverError}</p>}
          </div>
        )}
        <Field
          id={idOf('title')}
          label="タイトル"
          required
          error={errors.title}
          hint={`${[...values.title].length} / ${TITLE_MAX}文字`}
        >
          {(p) => (
            <input {...p} {...bind('title')} type="text" autoComplete="off" />
          )}
        </Field>
        <Field
          id={idOf('category')}
          label="カテゴリ"
          error={errors.category}
          hint={`例: お知らせ、大会、キャンペーン（${CATEGORY_MAX}文字以内）`}
        >
          {(p) => (
            <input
              {...p}
              {...bind('category')}
              type="text"
              autoComplete="off"
            />
          )}
        </Field>
        <Field
          id={idOf('body')}
          label="本文"
          required
          error={errors.body}
          hint={`空行で段落が分かれます。HTMLタグはそのまま文字として表示されます。${[...values.body].length.toLocaleString('ja-JP')} / ${BODY_MAX.toLocaleString('ja-JP')}文字`}
        >
          {(p) => <textarea {...p} {...bind('body')} rows={10} />}
        </Field>
        <Field
          id={idOf('imageUrl')}
          label="画像URL"
          error={errors.imageUrl}
          hint="https:// または /media/ で始まるURL"
        >
          {(p) => (
            <input
              {...p}
              {...bind('imageUrl')}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <Field
          id={idOf('publishedAt')}
          label="公開日時（日本時間）"
          error={errors.publishedAt}
          hint={
            values.publishedAt === ''
              ? '空欄の場合は保存と同時に公開されます。未来の日時を指定すると予約投稿になります。'
              : willSchedule
                ? 'この日時まで一般には表示されません（予約投稿）。'
                : '保存と同時に公開されます。'
          }
        >
          {(p) => (
            <input {...p} {...bind('publishedAt')} type="datetime-local" />
          )}
        </Field>
        <div className="button-row">
          <button
            type="submit"
            className="button button--primary"
            disabled={busy}
          >
            {busy
              ? '保存中…'
              : willSchedule
                ? '予約投稿する'
                : news
                  ? '保存する'
                  : '公開する'}
          </button>
          <button
            type="button"
            className="button button--outline"
            onClick={onCancel}
            disabled={busy}
          >
            キャンセル
          </button>
        </div>
      </form>
      <NewsPreview values={values} />
    </div>
  );
};
