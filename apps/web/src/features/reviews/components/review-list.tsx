import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Review } from '@proam/contract';
import { InfiniteQueryList } from '@/components/infinite-query-list';
import { useGetReviewsInfiniteQuery } from '../reviews-api';
import { ReplyForm } from './reply-form';
import { ReviewItem } from './review-item';

type ReviewListProps = {
  proId: string;
  /** The section's heading. */
  title?: string;
  /** The reviewed pro themself: a reply box under each review. */
  canReply?: boolean;
  /** More actions per review (通報する). */
  reviewActions?: (review: Review) => ReactNode;
};

/** A pro's reviews, newest first, with their replies; もっと見る loads older ones. */
export const ReviewList = ({
  proId,
  title = '口コミ',
  canReply = false,
  reviewActions,
}: ReviewListProps) => {
  const query = useGetReviewsInfiniteQuery(proId);
  return (
    <section className="review-list" aria-labelledby={`reviews-${proId}`}>
      <h3 id={`reviews-${proId}`} className="review-list__title">
        {title}
      </h3>
      <InfiniteQueryList
        query={query}
        loading="口コミを読み込み中"
        error="口コミを読み込めませんでした。"
        empty="口コミはまだありません。"
        listClassName="review-list__items"
        moreClassName="review-list__more"
      >
        {(r) => (
          <ReviewEntry
            key={r.id}
            review={r}
            canReply={canReply}
            actions={reviewActions?.(r)}
          />
        )}
      </InfiniteQueryList>
    </section>
  );
};

type ReviewEntryProps = {
  review: Review;
  canReply: boolean;
  actions: ReactNode;
};

/**
 * One review of the list. The reply box closes once a reply is posted, so
 * the focus goes to the reply itself as soon as the list shows it.
 */
const ReviewEntry = ({ review, canReply, actions }: ReviewEntryProps) => {
  const replyRef = useRef<HTMLDivElement>(null);
  // A new object per post: posting the same text again moves the focus too.
  const [posted, setPosted] = useState<{ text: string } | null>(null);
  useEffect(() => {
    if (posted && review.reply === posted.text) replyRef.current?.focus();
  }, [posted, review.reply]);
  return (
    <li>
      <ReviewItem
        review={review}
        actions={actions}
        replyRef={canReply ? replyRef : undefined}
        footer={
          canReply ? (
            <ReplyForm
              review={review}
              onReplied={(saved) => setPosted({ text: saved.reply ?? '' })}
            />
          ) : undefined
        }
      />
    </li>
  );
};
