import type { User } from '@proam/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/avatar';
import { HeartIcon, PinIcon } from '@/components/icons';
import { lessonFeeLabel } from '@/lib/payment-mode';

export const proPath = (id: string) =>
  `/tabs/likes/pro/${encodeURIComponent(id)}`;

type MemberCardProps = {
  user: User;
  /** Where the name links to (a pro's profile page); plain text without it. */
  to?: string;
  /** The like toggle or an いいね解除 button. */
  action?: ReactNode;
  /** Under the facts: 通報する, ブロックする. */
  footer?: ReactNode;
};

/** A member in a list: photo or initial, name, area, fee (pros), likes. */
export const MemberCard = ({ user, to, action, footer }: MemberCardProps) => {
  const isPro = user.type === 'pro';
  const fee = user.pro?.lessonFee;
  return (
    <article className="member-card">
      <Avatar name={user.userName} url={user.imageInfo[0]?.url} />
      <div className="member-card__body">
        <h3 className="member-card__name">
          {to ? <Link to={to}>{user.userName}</Link> : user.userName}
          {isPro && <span className="visually-hidden">プロ</span>}
        </h3>
        <ul className="member-card__facts">
          <li>
            <PinIcon width={16} height={16} />
            {user.area || '地域未設定'}
          </li>
          {isPro && (
            <li>
              <span className="member-card__label">レッスン料金</span>
              <span className="member-card__fee">
                {fee === undefined ? '未設定' : lessonFeeLabel(fee)}
              </span>
            </li>
          )}
          {isPro && user.pro && (
            <li className="member-card__rating">
              <span className="member-card__label">口コミ</span>
              {user.pro.ratingAverage !== null && user.pro.reviewCount > 0 ? (
                <>
                  <strong className="member-card__stars">
                    ★{user.pro.ratingAverage.toFixed(1)}
                  </strong>
                  （{user.pro.reviewCount}件）
                </>
              ) : (
                'まだありません'
              )}
            </li>
          )}
          {!isPro && user.amateur?.averageScore !== undefined && (
            <li>
              <span className="member-card__label">平均スコア</span>
              {user.amateur.averageScore}
            </li>
          )}
          <li className="member-card__likes">
            <HeartIcon width={16} height={16} />
            <span>
              いいね <strong data-testid="like-count">{user.likeCount}</strong>
            </span>
          </li>
        </ul>
        {isPro && user.pro?.specialty && (
          <p className="member-card__specialty">
            得意分野：{user.pro.specialty}
          </p>
        )}
        {footer && <div className="member-card__footer">{footer}</div>}
      </div>
      {action && <div className="member-card__action">{action}</div>}
    </article>
  );
};

/** The facts a card lists: a pro's area, fee, 口コミ and likes; a member's area and likes. */
const FACTS = {
  pro: ['area', 'fee', 'rating', 'likes'],
  member: ['area', 'likes'],
};

type SkeletonProps = {
  count?: number;
  /** Pros' cards (fee, 口コミ, 得意分野), else amateurs'. */
  pros?: boolean;
  /** The cards have an action button (like, いいね解除). */
  action?: boolean;
  /** The cards have footer buttons (通報する, ブロックする). */
  footer?: boolean;
};

/**
 * Placeholder cards while a list loads, laid out as MemberCard lays out the
 * cards they stand for, so the list keeps its height when they arrive and
 * nothing under it moves.
 */
export const MemberCardSkeletons = ({
  count = 3,
  pros = false,
  action = false,
  footer = false,
}: SkeletonProps) => (
  <ul className="member-list" aria-hidden="true">
    {Array.from({ length: count }, (_, i) => (
      <li key={i}>
        <div className="member-card member-card--skeleton">
          <span className="skeleton skeleton--avatar" />
          <div className="member-card__body">
            <p className="member-card__name">
              <span className="skeleton skeleton--line skeleton--short" />
            </p>
            <ul className="member-card__facts">
              {FACTS[pros ? 'pro' : 'member'].map((fact) => (
                <li key={fact}>
                  <span
                    className={`skeleton skeleton--fact skeleton--${fact}`}
                  />
                </li>
              ))}
            </ul>
            {pros && (
              <p className="member-card__specialty">
                <span className="skeleton skeleton--fact" />
              </p>
            )}
            {footer && (
              <div className="member-card__footer">
                <span className="skeleton skeleton--report" />
                <span className="skeleton skeleton--button" />
              </div>
            )}
          </div>
          {action && (
            <div className="member-card__action">
              <span className="skeleton skeleton--button" />
            </div>
          )}
        </div>
      </li>
    ))}
  </ul>
);
