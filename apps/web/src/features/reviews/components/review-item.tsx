import type { ReactNode, Ref } from 'react';
import type { Review } from '@proam/contract';
import { formatInstantDate } from '@/lib/format';
import { RATING_MAX } from '../review-validation';

/** ★★★★☆ with 「評価 ★4（5段階）」 as its name. */
export const ReviewStars = ({ rating }: { rating: number }) => (
  <span
    className="review-stars"
    role="img"
    aria-label={`評価 ★${rating}（${RATING_MAX}段階）`}
  >
    {'★'.repeat(rating)}
    <span className="review-stars__off">
      {'★'.repeat(Math.max(0, RATING_MAX - rating))}
    </span>
  </span>
);

type ReviewItemProps = {
  review: Review;
  /** The author's name is left out on the author's own card. */
  showAuthor?: boolean;
  /** 編集・削除, 通報する, … */
  actions?: ReactNode;
  /** Under the reply: the pro's reply box. */
  footer?: ReactNode;
  /** Given: the reply can take the focus, so a posted reply can get it. */
  replyRef?: Ref<HTMLDivElement>;
};

/** One review: stars, who and when, the comment and the pro's reply. */
export const ReviewItem = ({
  review: r,
  showAuthor = true,
  actions,
  footer,
  replyRef,
}: ReviewItemProps) => (
  <article className="review-item">
    <header className="review-item__head">
      <ReviewStars rating={r.rating} />
      {showAuthor && (
        <span className="review-item__author">
          {r.userName || '退会したユーザー'}さん
        </span>
      )}
      <time className="review-item__date" dateTime={r.createdAt}>
        {formatInstantDate(r.createdAt)}
      </time>
    </header>
    {r.comment && <p className="review-item__comment">{r.comment}</p>}
    {r.reply && (
      <div
        ref={replyRef}
        tabIndex={replyRef ? -1 : undefined}
        className="review-item__reply"
      >
        <p className="review-item__reply-label">プロからの返信</p>
        <p>{r.reply}</p>
      </div>
    )}
    {actions && <div className="review-item__actions">{actions}</div>}
    {footer}
  </article>
);
