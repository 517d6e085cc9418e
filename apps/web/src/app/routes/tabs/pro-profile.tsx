import { Link, useParams } from 'react-router';
import { InlineError } from '@/components/inline-error';
import { NoticeCard } from '@/components/notice-card';
import { PageHeader } from '@/components/page-header';
import { ProProfile } from '@/features/likes/components/pro-profile';
import {
  BuyerNotice,
  useIsBuyer,
} from '@/features/auth/components/buyer-notice';
import { useLikeToggle } from '@/features/likes/use-like-toggle';
import { useGetUserQuery } from '@/features/profile/profile-api';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { BlockToggle } from '@/features/moderation/components/block-toggle';
import { ReportButton } from '@/features/moderation/components/report-button';
import { RatingSummary } from '@/features/reviews/components/rating-summary';
import { ReviewList } from '@/features/reviews/components/review-list';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/styles/members.css';
import '@/styles/reviews.css';

/** `#/tabs/likes/pro/:id`: one pro's profile, reached from the likes tab. */
const ProProfileRoute = () => {
  const { id = '' } = useParams();
  const {
    data: user,
    isLoading,
    isError,
    refetch,
  } = useGetUserQuery(id, { skip: !id });
  const { likedIds, toggle, myType } = useLikeToggle();
  const isPro = user?.type === 'pro';
  const isBuyer = useIsBuyer();
  const me = useAppSelector(selectAuthUser);
  // Members other than the pro themself may report and block; buyers only read.
  const isMember =
    me?.type === 'pro' || me?.type === 'amature' || me?.type === 'admin';
  const isOther = isMember && me.id !== id;
  useDocumentTitle(isPro ? `${user.userName}プロ` : 'プロフィール');

  return (
    <>
      <PageHeader
        section="いいね"
        sectionTo="/tabs/likes"
        subtitle={isPro ? user.userName : 'プロフィール'}
        title={isPro ? `${user.userName}プロ` : 'プロフィール'}
        titleRight="PROFILE"
      />
      <div className="container section member-page">
        <p className="back-link">
          <Link to="/tabs/likes">← いいね一覧に戻る</Link>
        </p>
        {isBuyer && <BuyerNotice />}
        {isLoading ? (
          <div className="pro-profile pro-profile--skeleton" aria-hidden="true">
            <div className="skeleton skeleton--photo" />
            <div className="skeleton-stack">
              <div className="skeleton skeleton--line" />
              <div className="skeleton skeleton--line skeleton--short" />
              <div className="skeleton skeleton--block" />
            </div>
          </div>
        ) : isError ? (
          <InlineError
            message="プロフィールを読み込めませんでした。"
            onRetry={() => void refetch()}
          />
        ) : !isPro ? (
          <NoticeCard
            lead="プロが見つかりません"
            text="退会したか、URLが正しくない可能性があります。"
          />
        ) : (
          <ProProfile
            user={user}
            liked={likedIds.has(user.id)}
            canLike={myType === 'amature'}
            onToggle={() => toggle(user.id)}
            rating={user.pro && <RatingSummary pro={user.pro} />}
            safety={
              isOther && (
                <>
                  <ReportButton
                    targetType="user"
                    targetId={user.id}
                    targetLabel={`${user.userName}プロのプロフィール`}
                    className="button button--outline"
                  />
                  {me.type !== 'admin' && (
                    <BlockToggle
                      userId={user.id}
                      name={`${user.userName}プロ`}
                    />
                  )}
                </>
              )
            }
          >
            {isMember && (
              <ReviewList
                proId={user.id}
                reviewActions={(r) =>
                  r.userId !== me.id && (
                    <ReportButton
                      targetType="review"
                      targetId={r.id}
                      targetLabel={`${r.userName}さんの口コミ`}
                    />
                  )
                }
              />
            )}
          </ProProfile>
        )}
      </div>
    </>
  );
};

export default ProProfileRoute;
