import { useParams } from 'react-router';
import { Breadcrumb } from '@/components/page-header';
import { useAppSelector } from '@/app/hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { Conversation } from '@/features/chat/components/conversation';
import { useDocumentTitle } from '@/hooks/use-document-title';

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
        {user && (
          <Conversation
            key={partitionKey}
            partitionKey={partitionKey}
            userId={user.id}
          />
        )}
      </div>
    </>
  );
};

export default ChatRoomRoute;
