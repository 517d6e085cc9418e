import type { User } from '@proam/contract';
import { formatRating } from '../review-validation';

type RatingSummaryProps = {
  pro: Pick<NonNullable<User['pro']>, 'ratingAverage' | 'reviewCount'>;
  /** Smaller, for cards. */
  compact?: boolean;
};

/** 「★4.6 口コミ 12件」, or 「口コミはまだありません」. */
export const RatingSummary = ({ pro, compact = false }: RatingSummaryProps) => (
  <p className={`rating-summary${compact ? ' rating-summary--compact' : ''}`}>
    {pro.ratingAverage !== null && pro.reviewCount > 0 ? (
      <>
        <span className="rating-summary__average">
          {formatRating(pro.ratingAverage)}
        </span>
        <span className="rating-summary__count">
          口コミ {pro.reviewCount}件
        </span>
      </>
    ) : (
      <span className="rating-summary__count">口コミはまだありません</span>
    )}
  </p>
);
