import type { News } from '@proam/contract';
import { Field, TextField } from '@/components/form/field';
import { FormActions } from '@/components/form/form-actions';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useNow } from '@/hooks/use-now';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { textLength } from '@/lib/contract-limits';
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
  TITLE_MAX,
  emptyNewsValues,
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

/** Writes or edits one news item, with a live preview as the public page shows it. */
export const NewsEditor = ({ news, onDone, onCancel }: NewsEditorProps) => {
  const { values, errors, errorCount, serverError, idOf, bind, submit } =
    useValidatedForm<NewsValues>({
      initialValues: () => (news ? valuesFromNews(news) : emptyNewsValues()),
      validate: (f, v) => validateNews(v)[f],
      fields: NEWS_FIELDS,
      checkOn: 'submit',
    });
  const [create, createState] = useCreateNewsMutation();
  const [update, updateState] = useUpdateNewsMutation();
  const busy = createState.isLoading || updateState.isLoading;
  const now = useNow();

  const save = (v: NewsValues) => {
    const input = toNewsInput(v, news ? new Date() : undefined);
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

  const publishIso = values.publishedAt
    ? japanLocalInputToIso(values.publishedAt)
    : null;
  const willSchedule = publishIso !== null && Date.parse(publishIso) > now;

  return (
    <div className="news-editor">
      <form
        className="admin-form news-editor__form"
        noValidate
        onSubmit={(e) => void submit(e, save, announceSaved)}
      >
        <h2 className="admin-form__title" tabIndex={-1}>
          {news ? 'お知らせを編集' : 'お知らせを作成'}
        </h2>
        <FormErrorSummary errorCount={errorCount} serverError={serverError} />
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
          hint="https:// または /media/ で始まるURL"
          {...bind('imageUrl')}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="公開日時（日本時間）"
          error={errors.publishedAt}
          hint={
            values.publishedAt === ''
              ? '空欄の場合は保存と同時に公開されます。未来の日時を指定すると予約投稿になります。'
              : willSchedule
                ? 'この日時まで一般には表示されません（予約投稿）。'
                : '保存と同時に公開されます。'
          }
          {...bind('publishedAt')}
          type="datetime-local"
        />
        <FormActions
          busy={busy}
          submitLabel={
            willSchedule ? '予約投稿する' : news ? '保存する' : '公開する'
          }
          onCancel={onCancel}
        />
      </form>
      <NewsPreview values={values} />
    </div>
  );
};
