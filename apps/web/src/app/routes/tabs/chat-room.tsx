import { useParams } from 'react-router';
import { Breadcrumb } from '@/components/page-header';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { Conversation } from '@/features/chat/components/conversation';
import { ReportButton } from '@/features/moderation/components/report-button';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { BuyerNotice } from '@/features/auth/components/buyer-notice';
import { isBuyer } from '@/features/auth/buyer-mode';
import '@/styles/reviews.css';

/** `#/tabs/chat/:partitionKey`: one lesson's conversation. */
const ChatRoomRoute = () => {
  useDocumentTitle('レッスンチャット');
  const { partitionKey = '' } = useParams();
  const user = useAppSelector(selectAuthUser);
  return (
    <>
      <Breadcrumb
        items={[
          { label: 'チャット', to: '/tabs/chat' },
          { label: 'レッスンチャット' },
        ]}
      />
      <div className="container chat-room">
        {isBuyer(user) ? (
          <BuyerNotice lead="チャットはご利用いただけません" showSearchLink />
        ) : (
          user && (
            <Conversation
              key={partitionKey}
              partitionKey={partitionKey}
              userId={user.id}
              messageActions={(m, name) => (
                <ReportButton
                  targetType="message"
                  targetId={`${m.partitionKey}:${m.sort_key}`}
                  targetLabel={`${name}さんのメッセージ`}
                />
              )}
            />
          )
        )}
      </div>
    </>
  );
};

export default ChatRoomRoute;
