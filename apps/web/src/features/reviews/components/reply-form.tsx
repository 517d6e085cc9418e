import { useState } from 'react';
import type { Review } from '@proam/contract';
import { TextAreaField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { fieldOfValidationError } from '@/lib/server-errors';
import { REPLY_FIELDS, REPLY_MAX, validateReply } from '../review-validation';
import { useReplyToReviewMutation } from '../reviews-api';
import { FormActions } from '@/components/form/form-actions';

type ReplyFormProps = {
  review: Review;
  /** The reply was saved; the pro's list already shows it. */
  onReplied?: (saved: Review) => void;
};

/** The pro's 返信する under a review of them; sending again replaces the reply. */
export const ReplyForm = ({ review, onReplied }: ReplyFormProps) => {
  const [reply, { isLoading }] = useReplyToReviewMutation();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const form = useValidatedForm({
    initialValues: { reply: review.reply ?? '' },
    fields: REPLY_FIELDS,
    validate: validateReply,
  });
  return (
    <div className={open ? undefined : 'reply-form__open'}>
      {/* In the document, empty, while the form is open: so its message is announced. */}
      <p
        className={done ? 'reply-form__done' : 'visually-hidden'}
        role="status"
      >
        {done ? '返信を送信しました。' : ''}
      </p>
      {open ? (
        <form
          className="reply-form"
          noValidate
          onSubmit={(e) =>
            void form.submit(
              e,
              (v) => reply({ id: review.id, reply: v.reply.trim() }),
              (saved) => {
                setOpen(false);
                setDone(true);
                onReplied?.(saved);
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
            hint={
              review.reply ? '送信すると前の返信と置き換わります。' : undefined
            }
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
      ) : (
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
      )}
    </div>
  );
};
