import { Outlet } from 'react-router';
import { MemberTabBar } from '@/components/member-tab-bar';
import { RequireLogin } from '@/features/auth/components/require-login';

/** The member area: every `#/tabs/*` page, behind the login, with the tab bar. */
const TabsLayout = () => (
  <RequireLogin>
    <div className="member-area">
      <MemberTabBar />
      <div className="member-area__content">
        <Outlet />
      </div>
    </div>
  </RequireLogin>
);

export default TabsLayout;
