import { useMemo } from 'react';
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

/**
 * A tab while the stored login is being confirmed: its title block, a
 * spinner where its content goes.
 */
const RestoringTab = ({ path }: { path: string }) => {
  useDocumentTitle(memberTabHeader(path)?.title ?? null);
  return (
    <>
      <MemberTabHeader path={path} />
      <div className="container section">
        <RestoringLogin />
      </div>
    </>
  );
};

/**
 * The member area: the tab bar, the chat socket (the チャット tab shows
 * unread messages), and the page under it. While a stored login is being
 * confirmed (`restoring`), a tab with a title block already shows as it
 * will, a spinner where its content goes: that is the page's first render
 * for a returning member, which the build prerenders
 * (app/prerendered-pages.ts) and public/deep-link.js puts in place before
 * any script has run, so it paints at once and the app hydrates it. The same
 * component either way, so confirming the login keeps the tab bar (and
 * focus in it) and swaps only what is under it.
 */
const MemberArea = ({ restoring = false }: { restoring?: boolean }) => {
  const unreadChats = useChatConnection();
  const isAdmin = useIsAdmin();
  const { pathname } = useLocation();
  // The same object while the count stands, so the memoised tab bar skips
  // the member area's other renders.
  const unread = useMemo(() => ({ '/tabs/chat': unreadChats }), [unreadChats]);
  return (
    <div className="member-area">
      <MemberTabBar unread={unread} showAdmin={isAdmin} />
      <div className="member-area__content">
        {restoring ? <RestoringTab path={pathname} /> : <Outlet />}
      </div>
    </div>
  );
};

/**
 * The member area: every `#/tabs/*` page, behind the login, with the tab
 * bar. A page without a title block of its own shows a spinner while the
 * stored login is being confirmed.
 */
const TabsLayout = () => {
  const { pathname } = useLocation();
  return (
    <RequireLogin
      restoring={
        memberTabHeader(pathname) ? <MemberArea restoring /> : undefined
      }
    >
      <MemberArea />
    </RequireLogin>
  );
};

export default TabsLayout;
