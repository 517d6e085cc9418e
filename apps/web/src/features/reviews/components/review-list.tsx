import type { ReactNode } from 'react';
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
          <li key={r.id}>
            <ReviewItem
              review={r}
              actions={reviewActions?.(r)}
              footer={canReply ? <ReplyForm review={r} /> : undefined}
            />
          </li>
        )}
      </InfiniteQueryList>
    </section>
  );
};
