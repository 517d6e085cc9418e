import { useEffect, useState } from 'react';
import type { Review } from '@proam/contract';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { TextAreaField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import {
  COMMENT_MAX,
  REVIEW_FIELDS,
  validateReview,
  type ReviewValues,
} from '../review-validation';
import {
  useCreateReviewMutation,
  useUpdateReviewMutation,
} from '../reviews-api';
import { StarRatingInput } from './star-rating-input';

type ReviewDialogProps = {
  open: boolean;
  scheduleId: string;
  /** e.g. 「11月28日(土) 府中カントリークラブ」, naming the lesson. */
  lessonLabel: string;
  /** Given: 編集 of this review; else a new one. */
  review?: Review | null;
  onClose: () => void;
  onSaved: (review: Review) => void;
};

const valuesOf = (review?: Review | null): ReviewValues => ({
  rating: review ? String(review.rating) : '',
  comment: review?.comment ?? '',
});

const failureText = (code: string | undefined, msg: string | undefined) => {
  if (code === 'Conflict') return 'このレッスンの口コミはすでに投稿済みです。';
  if (code === 'Forbidden')
    return 'このレッスンの口コミは投稿できません（参加が確定したレッスンの当日から投稿できます）。';
  return msg ?? '送信できませんでした。時間をおいて再度お試しください。';
};

/**
 * 口コミを書く / 編集 (mount it with a new `key` for each opening): ★1〜★5 and an optional comment with its counter. A
 * failure is explained in the dialog, and what was typed stays.
 */
export const ReviewDialog = ({
  open,
  scheduleId,
  lessonLabel,
  review,
  onClose,
  onSaved,
}: ReviewDialogProps) => {
  const [create, created] = useCreateReviewMutation();
  const [update, updated] = useUpdateReviewMutation();
  const busy = created.isLoading || updated.isLoading;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useValidatedForm({
    initialValues: () => valuesOf(review),
    fields: REVIEW_FIELDS,
    validate: validateReview,
    checkOn: 'submit',
  });

  const { focusField } = form;
  const editing = Boolean(review);
  // The dialog has opened (its effect runs before this one): start at the
  // stars. A new dialog is mounted for each opening (a new key), so it
  // starts from the review as it is then.
  useEffect(() => {
    if (open) focusField('rating');
  }, [open, focusField]);

  const send = async () => {
    setFormError(null);
    if (!form.validateForm()) return;
    const rating = Number(form.values.rating);
    const comment = form.values.comment.trim();
    const result = review
      ? await update({ id: review.id, rating, comment })
      : await create({
          scheduleId,
          rating,
          ...(comment ? { comment } : {}),
        });
    if (result.data) {
      onSaved(result.data);
      return;
    }
    const error = apiErrorOf(result);
    const field = fieldOfValidationError(error, REVIEW_FIELDS);
    if (field) {
      form.markServerError(
        field,
        field === 'rating'
          ? '評価をご確認ください。'
          : 'コメントをご確認ください。',
      );
      return;
    }
    setFormError(failureText(error?.code, error?.msg));
  };

  return (
    <ConfirmDialog
      open={open}
      title={editing ? '口コミを編集' : '口コミを書く'}
      message={`${lessonLabel}のレッスンはいかがでしたか？プロのプロフィールに、お名前とともに公開されます。`}
      confirmLabel={busy ? '送信中…' : editing ? '保存する' : '投稿する'}
      danger={false}
      busy={busy}
      onConfirm={() => void send()}
      onCancel={onClose}
    >
      <FormErrorSummary errorCount={0} serverError={formError} />
      <StarRatingInput
        id={form.idOf('rating')}
        name={form.idOf('rating')}
        value={form.values.rating}
        error={form.errors.rating}
        onChange={(v) => form.setValue('rating', v)}
        firstRef={form.register('rating')}
      />
      <TextAreaField
        label="コメント"
        max={COMMENT_MAX}
        rows={4}
        placeholder="レッスンの良かったところ、印象に残ったことなど"
        error={form.errors.comment}
        {...form.bind('comment')}
      />
    </ConfirmDialog>
  );
};
