import { useState } from 'react';
import type { Review } from '@proam/contract';
import { TextAreaField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { fieldOfValidationError } from '@/lib/server-errors';
import { REPLY_FIELDS, REPLY_MAX, validateReply } from '../review-validation';
import { useReplyToReviewMutation } from '../reviews-api';
import { FormActions } from '@/components/form/form-actions';

type ReplyFormProps = { review: Review };

/** The pro's 返信する under a review of them; sending again replaces the reply. */
export const ReplyForm = ({ review }: ReplyFormProps) => {
  const [reply, { isLoading }] = useReplyToReviewMutation();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const form = useValidatedForm({
    initialValues: { reply: review.reply ?? '' },
    fields: REPLY_FIELDS,
    validate: validateReply,
  });
  if (!open)
    return (
      <div className="reply-form__open">
        {done && (
          <p className="reply-form__done" role="status">
            返信を送信しました。
          </p>
        )}
        <button
          type="button"
          className="button button--outline"
          aria-label={`${review.userName}さんの口コミに${review.reply ? '返信を編集' : '返信する'}`}
          onClick={() => {
            form.reset({ reply: review.reply ?? '' });
            setDone(false);
            setOpen(true);
          }}
        >
          {review.reply ? '返信を編集' : '返信する'}
        </button>
      </div>
    );
  return (
    <form
      className="reply-form"
      noValidate
      onSubmit={(e) =>
        void form.submit(
          e,
          (v) => reply({ id: review.id, reply: v.reply.trim() }),
          () => {
            setOpen(false);
            setDone(true);
          },
          (error) => {
            if (fieldOfValidationError(error, REPLY_FIELDS))
              form.markServerError('reply', '返信をご確認ください。');
          },
        )
      }
    >
      <FormErrorSummary
        errorCount={form.errorCount}
        serverError={form.serverError}
      />
      <TextAreaField
        label={`${review.userName}さんへの返信`}
        required
        max={REPLY_MAX}
        rows={3}
        hint={review.reply ? '送信すると前の返信と置き換わります。' : undefined}
        error={form.errors.reply}
        autoFocus
        {...form.bind('reply')}
      />
      <FormActions
        busy={isLoading}
        submitLabel="返信する"
        busyLabel="送信中…"
        onCancel={() => setOpen(false)}
      />
    </form>
  );
};
