import type { ReactNode } from 'react';
import type { Review } from '@proam/contract';
import { QueryState } from '@/components/query-state';
import { useGetReviewsInfiniteQuery } from '../reviews-api';
import { ReplyForm } from './reply-form';
import { ReviewItem } from './review-item';
import { LoadMore } from '@/components/form/form-actions';

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
  const reviews = query.data?.pages.flat() ?? [];
  return (
    <section className="review-list" aria-labelledby={`reviews-${proId}`}>
      <h3 id={`reviews-${proId}`} className="review-list__title">
        {title}
      </h3>
      <QueryState
        query={query}
        loading="口コミを読み込み中"
        error="口コミを読み込めませんでした。"
        isEmpty={reviews.length === 0}
        empty="口コミはまだありません。"
      >
        {() => (
          <>
            <ul className="review-list__items">
              {reviews.map((r) => (
                <li key={r.id}>
                  <ReviewItem
                    review={r}
                    actions={reviewActions?.(r)}
                    footer={canReply ? <ReplyForm review={r} /> : undefined}
                  />
                </li>
              ))}
            </ul>
            {query.hasNextPage && (
              <LoadMore
                className="review-list__more"
                loading={query.isFetchingNextPage}
                onLoad={query.fetchNextPage}
              />
            )}
          </>
        )}
      </QueryState>
    </section>
  );
};
