import type { ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { MemberTabBar } from '@/components/member-tab-bar';
import {
  MemberTabHeader,
  memberTabHeader,
} from '@/components/member-tab-header';
import { useIsAdmin } from '@/features/auth/components/require-admin';
import {
  RequireLogin,
  RestoringLogin,
} from '@/features/auth/components/require-login';
import { useChatConnection } from '@/features/chat/use-chat-connection';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** The tab bar and the page under it: the same frame whether logged in yet or not. */
const MemberFrame = ({
  unread,
  showAdmin = false,
  children,
}: {
  unread?: Partial<Record<string, number>>;
  showAdmin?: boolean;
  children: ReactNode;
}) => (
  <div className="member-area">
    <MemberTabBar unread={unread} showAdmin={showAdmin} />
    <div className="member-area__content">{children}</div>
  </div>
);

/** Logged in: the chat socket is open and the チャット tab shows unread messages. */
const MemberArea = () => {
  const unreadChats = useChatConnection();
  const isAdmin = useIsAdmin();
  return (
    <MemberFrame unread={{ '/tabs/chat': unreadChats }} showAdmin={isAdmin}>
      <Outlet />
    </MemberFrame>
  );
};

/**
 * A stored login being confirmed. On a tab with a title block, the tab
 * already shows as it will: the tab bar and the tab's title block, a spinner
 * where its content goes. That is this page's first render for a returning
 * member, which the build prerenders (app/prerendered-pages.ts) and
 * public/deep-link.js puts in place before any script has run, so the page
 * paints at once and the app hydrates it. Elsewhere, a spinner.
 */
const RestoringMemberArea = () => {
  const { pathname } = useLocation();
  const header = memberTabHeader(pathname);
  useDocumentTitle(header?.title ?? '会員メニュー');
  if (!header) return <RestoringLogin screen />;
  return (
    <MemberFrame>
      <MemberTabHeader path={pathname} />
      <div className="container section">
        <RestoringLogin />
      </div>
    </MemberFrame>
  );
};

/** The member area: every `#/tabs/*` page, behind the login, with the tab bar. */
const TabsLayout = () => (
  <RequireLogin restoring={<RestoringMemberArea />}>
    <MemberArea />
  </RequireLogin>
);

export default TabsLayout;
