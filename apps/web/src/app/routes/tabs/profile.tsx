import { Link } from 'react-router';
import { MemberSection } from '@/components/member-section';
import { NoticeCard } from '@/components/notice-card';
import { MemberTabHeader } from '@/components/member-tab-header';
import { InlineError } from '@/components/inline-error';
import { paymentsEnabled } from '@/config/env';
import { useAppSelector } from '@/lib/store-hooks';
import { AccountPanel } from '@/features/auth/components/account-panel';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { NotificationSettingsPanel } from '@/features/notifications/components/notification-settings-panel';
import { DeleteAccount } from '@/features/profile/components/delete-account';
import { PhotoManager } from '@/features/profile/components/photo-manager';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { useGetUserQuery } from '@/features/profile/profile-api';
import { BlockedMembers } from '@/features/moderation/components/blocked-members';
import { PaymentHistory } from '@/features/payment/components/payment-history';
import { RatingSummary } from '@/features/reviews/components/rating-summary';
import { ReviewList } from '@/features/reviews/components/review-list';
import { VerificationBanner } from '@/features/schedule/components/verification-banner';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/styles/members.css';
import '@/styles/booking.css';
import '@/styles/reviews.css';
import '@/styles/payments.css';

const ProfileSkeleton = () => (
  <div className="skeleton-stack" aria-hidden="true">
    <div className="skeleton skeleton--block" />
    <div className="skeleton skeleton--line" />
    <div className="skeleton skeleton--line" />
    <div className="skeleton skeleton--block" />
  </div>
);

const ProfileRoute = () => {
  useDocumentTitle('プロフィール');
  const me = useAppSelector(selectAuthUser);
  const isMember =
    me?.type === 'pro' || me?.type === 'amature' || me?.type === 'admin';
  const {
    data: user,
    isLoading,
    isError,
    refetch,
  } = useGetUserQuery(me?.id ?? '', {
    skip: !isMember,
  });

  return (
    <>
      <MemberTabHeader path="/tabs/profile" />
      <div className="container section member-page">
        <AccountPanel />
        {!isMember ? (
          <NoticeCard
            lead="このアカウントではプロフィールを編集できません"
            text="プロフィールの編集は、プロ会員・アマチュア会員の方がご利用いただけます。"
          />
        ) : isLoading ? (
          <>
            <p className="visually-hidden" role="status">
              プロフィールを読み込んでいます
            </p>
            <ProfileSkeleton />
          </>
        ) : isError || !user ? (
          <InlineError
            message="プロフィールを読み込めませんでした。"
            onRetry={() => void refetch()}
          />
        ) : (
          <>
            <VerificationBanner user={user} />
            <PhotoManager user={user} />
            <section className="member-section">
              <ProfileForm key={user.id} user={user} />
            </section>
            {user.type === 'pro' && user.pro && (
              <MemberSection
                id="my-reviews-title"
                className="my-reviews"
                title="あなたへの口コミ"
              >
                <RatingSummary pro={user.pro} />
                <ReviewList
                  proId={user.id}
                  title="口コミ一覧（返信できます）"
                  canReply
                />
              </MemberSection>
            )}
            {user.type === 'pro' && paymentsEnabled() && (
              <MemberSection id="sales-link-title" title="売上明細">
                <p>
                  オンライン決済されたレッスン料の月ごとの明細と、お支払い予定額（月末締め・翌月末払い）を確認できます。
                </p>
                <p>
                  <Link to="/sales" className="button button--outline">
                    売上明細を見る
                  </Link>
                </p>
              </MemberSection>
            )}
            {user.type === 'amature' && <PaymentHistory />}
            <NotificationSettingsPanel />
            {user.type !== 'admin' && <BlockedMembers />}
            {user.email && <DeleteAccount email={user.email} />}
          </>
        )}
      </div>
    </>
  );
};

export default ProfileRoute;
