import { useEffect, useRef, useState } from 'react';
import type { Review } from '@proam/contract';
import { StatusNotice } from '@/components/flash-status';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { InlineError } from '@/components/inline-error';
import { useDeleteReviewMutation, useGetMyReviewQuery } from '../reviews-api';
import { ReviewDialog } from './review-dialog';
import { ReviewItem } from './review-item';

type LessonReviewProps = {
  scheduleId: string;
  proId: string;
  /** The lesson's date, `YYYY-MM-DD`. */
  date: string;
  userId: string;
  /** e.g. 「2026年11月28日(土)」, naming the lesson in labels. */
  lessonLabel: string;
};

/**
 * On a lesson the member took part in, from its day on: the invitation
 * 「レッスンはいかがでしたか？」 with 口コミを書く, or, once written, their
 * review with 編集 and 削除. Whether they reviewed is read from the pro's
 * reviews (reviews-api `getMyReview`).
 */
export const LessonReview = ({
  scheduleId,
  proId,
  date,
  userId,
  lessonLabel,
}: LessonReviewProps) => {
  const query = useGetMyReviewQuery({
    proId,
    scheduleId,
    userId,
    lessonDate: date,
  });
  const [remove, removing] = useDeleteReviewMutation();
  const [editing, setEditing] = useState(false);
  // A fresh dialog (and form) for each opening.
  const [dialogKey, setDialogKey] = useState(0);
  const openDialog = () => {
    setDialogKey((k) => k + 1);
    setEditing(true);
  };
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState<{ text: string } | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // The button that opened the dialog may be gone: the notice takes the focus.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const review: Review | null | undefined = query.data;
  const saved = (text: string) => {
    setEditing(false);
    setNotice({ text });
  };
  const doDelete = async () => {
    if (!review) return;
    const result = await remove({ id: review.id });
    setConfirmDelete(false);
    if (result.data) setNotice({ text: '口コミを削除しました。' });
  };

  return (
    <section className="lesson-review" aria-label={`${lessonLabel}の口コミ`}>
      <StatusNotice
        ref={noticeRef}
        className="lesson-review__notice"
        text={notice?.text}
      />
      {query.isError && (
        <InlineError
          message="口コミを読み込めませんでした。"
          onRetry={() => void query.refetch()}
        />
      )}
      {review === null && (
        <div className="lesson-review__invite">
          <p className="lesson-review__lead">レッスンはいかがでしたか？</p>
          <button
            type="button"
            className="button button--primary"
            aria-label={`${lessonLabel}のレッスンの口コミを書く`}
            onClick={openDialog}
          >
            口コミを書く
          </button>
        </div>
      )}
      {review && (
        <>
          <p className="lesson-review__lead">あなたの口コミ</p>
          <ReviewItem
            review={review}
            showAuthor={false}
            actions={
              <>
                <button
                  type="button"
                  className="button button--outline button--small"
                  aria-label={`${lessonLabel}の口コミを編集`}
                  onClick={openDialog}
                >
                  編集
                </button>
                <button
                  type="button"
                  className="button button--outline button--small"
                  aria-label={`${lessonLabel}の口コミを削除`}
                  onClick={() => setConfirmDelete(true)}
                >
                  削除
                </button>
              </>
            }
          />
        </>
      )}
      <ReviewDialog
        key={dialogKey}
        open={editing}
        scheduleId={scheduleId}
        lessonLabel={lessonLabel}
        review={review}
        onClose={() => setEditing(false)}
        onSaved={() =>
          saved(review ? '口コミを更新しました。' : '口コミを投稿しました。')
        }
      />
      <ConfirmDialog
        open={confirmDelete}
        title="口コミの削除"
        message="この口コミを削除します。削除すると元に戻せません。"
        confirmLabel={removing.isLoading ? '削除中…' : '削除する'}
        busy={removing.isLoading}
        onConfirm={() => void doDelete()}
        onCancel={() => setConfirmDelete(false)}
      />
    </section>
  );
};
