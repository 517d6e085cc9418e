import { Outlet } from 'react-router';
import { MemberTabBar } from '@/components/member-tab-bar';
import { useIsAdmin } from '@/features/auth/components/require-admin';
import { RequireLogin } from '@/features/auth/components/require-login';
import { useChatConnection } from '@/features/chat/use-chat-connection';

/** Logged in: the chat socket is open and the チャット tab shows unread messages. */
const MemberArea = () => {
  const unreadChats = useChatConnection();
  const isAdmin = useIsAdmin();
  return (
    <div className="member-area">
      <MemberTabBar
        unread={{ '/tabs/chat': unreadChats }}
        showAdmin={isAdmin}
      />
      <div className="member-area__content">
        <Outlet />
      </div>
    </div>
  );
};

/** The member area: every `#/tabs/*` page, behind the login, with the tab bar. */
const TabsLayout = () => (
  <RequireLogin>
    <MemberArea />
  </RequireLogin>
);

export default TabsLayout;
