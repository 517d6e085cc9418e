import { NoticeCard } from '@/components/notice-card';
import { MemberTabHeader } from '@/components/member-tab-header';
import { LikedMembers } from '@/features/likes/components/liked-members';
import { ProLikes } from '@/features/likes/components/pro-likes';
import { ProSearch } from '@/features/likes/components/pro-search';
import {
  BuyerNotice,
  useIsBuyer,
} from '@/features/auth/components/buyer-notice';
import { useLikeToggle } from '@/features/likes/use-like-toggle';
import { BlockToggle } from '@/features/moderation/components/block-toggle';
import { ReportButton } from '@/features/moderation/components/report-button';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/styles/members.css';
import '@/styles/reviews.css';

const LikesRoute = () => {
  useDocumentTitle('いいね');
  const toggle = useLikeToggle();
  const { me, myType, likedIds } = toggle;
  const isBuyer = useIsBuyer();

  return (
    <>
      <MemberTabHeader path="/tabs/likes" />
      <div className="container section member-page">
        {myType === 'amature' && (
          <>
            <LikedMembers
              title="いいねしたプロ"
              pros
              toggle={toggle}
              empty="まだいいねしたプロはいません。下の検索からお気に入りのプロを探して「いいね」しましょう。"
            />
            <ProSearch likedIds={likedIds} onToggle={toggle.toggle} />
          </>
        )}
        {myType === 'pro' && me && (
          <ProLikes
            userId={me.id}
            toggle={toggle}
            memberSafety={(u) => (
              <>
                <ReportButton
                  targetType="user"
                  targetId={u.id}
                  targetLabel={`${u.userName}さんのプロフィール`}
                />
                <BlockToggle userId={u.id} name={`${u.userName}さん`} />
              </>
            )}
          />
        )}
        {isBuyer && (
          <>
            <BuyerNotice lead="プロを探す（閲覧のみ）" />
            <ProSearch likedIds={likedIds} />
          </>
        )}
        {!myType && !isBuyer && (
          <NoticeCard
            lead="いいねはプロ会員・アマチュア会員の機能です"
            text="このアカウントではいいねをご利用いただけません。"
          />
        )}
      </div>
    </>
  );
};

export default LikesRoute;
