import type { News } from '@proam/contract';
import { useId, useRef, useState } from 'react';
import { Field, TextField } from '@/components/form/field';
import { FormActions } from '@/components/form/form-actions';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useNow } from '@/hooks/use-now';
import { useValidatedForm } from '@/hooks/use-validated-form';
import type { ApiError } from '@/lib/api-error';
import { textLength } from '@/lib/contract-limits';
import { fieldOfValidationError } from '@/lib/server-errors';
import {
  formatInstantDateTime,
  groupDigits,
  japanLocalInputToIso,
} from '@/lib/format';
import { useCreateNewsMutation, useUpdateNewsMutation } from '../news-api';
import {
  BODY_MAX,
  CATEGORY_MAX,
  NEWS_FIELDS,
  NEWS_LABELS,
  TITLE_MAX,
  emptyNewsValues,
  isScheduled,
  toNewsInput,
  validateNews,
  valuesFromNews,
  type NewsValues,
} from '../news-validation';
import { NewsPreview } from './news-preview';

type NewsEditorProps = {
  /** Absent: a new item. */
  news?: News;
  onDone: (message: string) => void;
  onCancel: () => void;
};

/**
 * Writes or edits one news item, with a live preview as the public page
 * shows it. An empty 公開日時 publishes a new item at once; an edited item
 * keeps its time unless 今すぐ公開する is chosen, so a scheduled item never
 * goes public by a blank or half-typed field.
 */
export const NewsEditor = ({ news, onDone, onCancel }: NewsEditorProps) => {
  const now = useNow();
  const publishNowId = useId();
  const [publishNowChosen, setPublishNowChosen] = useState(false);
  // Offered only for an item still scheduled: others are public already.
  const scheduledItem = news !== undefined && isScheduled(news, now);
  const publishNow = scheduledItem && publishNowChosen;
  const publishedAtInput = useRef<HTMLInputElement | null>(null);
  /** The English name in a ValidationError the form has shown in Japanese. */
  const [explained, setExplained] = useState<string | null>(null);
  const {
    values,
    errors,
    errorCount,
    serverError,
    idOf,
    bind,
    submit,
    markServerError,
  } = useValidatedForm<NewsValues>({
    initialValues: () => (news ? valuesFromNews(news) : emptyNewsValues()),
    validate: (f, v) =>
      validateNews(v, {
        publishNow,
        // Read from the control itself: a browser reports a half-typed
        // datetime-local as empty, and says so only through validity.
        publishedAtIncomplete:
          publishedAtInput.current?.validity.badInput === true,
      })[f],
    fields: NEWS_FIELDS,
    checkOn: 'submit',
  });
  const [create, createState] = useCreateNewsMutation();
  const [update, updateState] = useUpdateNewsMutation();
  const busy = createState.isLoading || updateState.isLoading;

  const save = (v: NewsValues) => {
    setExplained(null);
    const input = toNewsInput(v, publishNow ? new Date() : undefined);
    return news ? update({ id: news.id, ...input }) : create(input);
  };

  const announceSaved = (saved: News) => {
    const scheduled = Date.parse(saved.publishedAt) > Date.now();
    onDone(
      `「${saved.title}」を${news ? '保存' : '作成'}しました。` +
        (scheduled
          ? `${formatInstantDateTime(saved.publishedAt)}に公開されます（予約投稿）。`
          : '公開中です。'),
    );
  };

  /** A field the server refused is named in Japanese, beside the field. */
  const explainRefusal = (error: ApiError) => {
    const field = fieldOfValidationError(error, NEWS_FIELDS);
    if (!field) return;
    setExplained(error.msg);
    markServerError(field, `${NEWS_LABELS[field]}の内容をご確認ください。`);
  };

  // Empty on an edit: the item's own time is kept.
  const keptAt = news && values.publishedAt === '' ? news.publishedAt : null;
  const publishIso = publishNow
    ? null
    : values.publishedAt
      ? japanLocalInputToIso(values.publishedAt)
      : keptAt;
  const willSchedule = publishIso !== null && Date.parse(publishIso) > now;

  const publishedAtHint = publishNow
    ? '「今すぐ公開する」を選んでいるため、この日時は使われません。'
    : keptAt
      ? scheduledItem
        ? `空欄のまま保存すると、予約どおり${formatInstantDateTime(keptAt)}に公開されます。すぐに公開するには「今すぐ公開する」にチェックを入れてください。`
        : `空欄のまま保存すると、公開日時は変わりません（${formatInstantDateTime(keptAt)}）。`
      : values.publishedAt === ''
        ? '空欄の場合は保存と同時に公開されます。未来の日時を指定すると予約投稿になります。'
        : willSchedule
          ? 'この日時まで一般には表示されません（予約投稿）。'
          : '保存と同時に公開されます。';
  const publishedAtBinding = bind('publishedAt');

  return (
    <div className="news-editor">
      <form
        className="admin-form news-editor__form"
        noValidate
        onSubmit={(e) => void submit(e, save, announceSaved, explainRefusal)}
      >
        <h2 className="admin-form__title" tabIndex={-1}>
          {news ? 'お知らせを編集' : 'お知らせを作成'}
        </h2>
        <FormErrorSummary
          errorCount={errorCount}
          serverError={serverError === explained ? null : serverError}
        />
        <Field
          id={idOf('title')}
          label="タイトル"
          required
          error={errors.title}
          hint={`${textLength(values.title)} / ${TITLE_MAX}文字`}
        >
          {(p) => (
            <input {...p} {...bind('title')} type="text" autoComplete="off" />
          )}
        </Field>
        <TextField
          label="カテゴリ"
          error={errors.category}
          hint={`例: お知らせ、大会、キャンペーン（${CATEGORY_MAX}文字以内）`}
          {...bind('category')}
          type="text"
          autoComplete="off"
        />
        <Field
          id={idOf('body')}
          label="本文"
          required
          error={errors.body}
          hint={`空行で段落が分かれます。HTMLタグはそのまま文字として表示されます。${groupDigits(textLength(values.body))} / ${groupDigits(BODY_MAX)}文字`}
        >
          {(p) => <textarea {...p} {...bind('body')} rows={10} />}
        </Field>
        <TextField
          label="画像URL"
          error={errors.imageUrl}
          hint="/media/ で始まるURL（メディアにアップロードした画像）。ほかのサイトの画像はセキュリティ設定により表示されないため、指定できません。"
          {...bind('imageUrl')}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="公開日時（日本時間）"
          error={errors.publishedAt}
          hint={publishedAtHint}
          {...publishedAtBinding}
          ref={(el) => {
            publishedAtBinding.ref(el);
            publishedAtInput.current = el;
          }}
          type="datetime-local"
          disabled={publishNow}
        />
        {scheduledItem && (
          <div className="form-field">
            <label className="check-field" htmlFor={publishNowId}>
              <input
                id={publishNowId}
                type="checkbox"
                checked={publishNowChosen}
                aria-describedby={`${publishNowId}-hint`}
                onChange={(e) => setPublishNowChosen(e.target.checked)}
              />
              今すぐ公開する
            </label>
            <p id={`${publishNowId}-hint`} className="form-field__hint">
              チェックを入れて保存すると、予約を取り消してすぐに公開します（公開日時は保存した時刻になります）。
            </p>
          </div>
        )}
        <FormActions
          busy={busy}
          submitLabel={
            publishNow
              ? '保存して公開する'
              : willSchedule
                ? '予約投稿する'
                : news
                  ? '保存する'
                  : '公開する'
          }
          onCancel={onCancel}
        />
      </form>
      <NewsPreview
        values={publishNow ? { ...values, publishedAt: '' } : values}
        keptPublishedAt={keptAt ?? undefined}
      />
    </div>
  );
};
