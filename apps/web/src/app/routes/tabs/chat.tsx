import { MemberTabHeader } from '@/components/member-tab-header';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { ChatList } from '@/features/chat/components/chat-list';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { BuyerNotice } from '@/features/auth/components/buyer-notice';
import { isBuyer } from '@/features/auth/buyer-mode';

const ChatRoute = () => {
  useDocumentTitle('チャット');
  const user = useAppSelector(selectAuthUser);
  return (
    <>
      <MemberTabHeader path="/tabs/chat" />
      <div className="container section chat-page">
        {isBuyer(user) ? (
          <BuyerNotice lead="チャットはご利用いただけません" showSearchLink />
        ) : (
          user && <ChatList userId={user.id} />
        )}
      </div>
    </>
  );
};

export default ChatRoute;
