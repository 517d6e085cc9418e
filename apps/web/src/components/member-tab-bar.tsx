import { memo, type ComponentType, type SVGProps } from 'react';
import { NavLink } from 'react-router';
import {
  CalendarIcon,
  ChatIcon,
  HeartIcon,
  ShieldIcon,
  TrophyIcon,
  UserIcon,
} from './icons';

type Tab = {
  to: string;
  label: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
};

const TABS: readonly Tab[] = [
  { to: '/tabs/schedule', label: 'スケジュール', Icon: CalendarIcon },
  { to: '/tabs/likes', label: 'いいね', Icon: HeartIcon },
  { to: '/tabs/chat', label: 'チャット', Icon: ChatIcon },
  { to: '/tabs/competitions', label: '大会', Icon: TrophyIcon },
  { to: '/tabs/profile', label: 'プロフィール', Icon: UserIcon },
];

const ADMIN_TAB: Tab = { to: '/tabs/admin', label: '管理', Icon: ShieldIcon };

/**
 * The member area's five tabs: a bar fixed to the bottom on phones, a strip
 * under the header on wider screens. NavLink marks the active one with
 * aria-current="page"; a tab with unread items gets a badge and says so in
 * its accessible name.
 */
export const MemberTabBar = memo(function MemberTabBar({
  unread = {},
  showAdmin = false,
}: {
  /** Unread counts by tab path, shown as a badge (e.g. チャット). */
  unread?: Partial<Record<string, number>>;
  /** Adds the 管理 tab (admins only). */
  showAdmin?: boolean;
}) {
  return (
    <nav className="tab-bar" aria-label="会員メニュー">
      <ul className="tab-bar__list">
        {(showAdmin ? [...TABS, ADMIN_TAB] : TABS).map(
          ({ to, label, Icon }) => {
            const count = unread[to] ?? 0;
            return (
              <li key={to} className="tab-bar__item">
                <NavLink
                  to={to}
                  className="tab-bar__link"
                  aria-label={count > 0 ? `${label} 未読${count}件` : undefined}
                >
                  <span className="tab-bar__icon-wrap">
                    <Icon className="tab-bar__icon" width={24} height={24} />
                    {count > 0 && (
                      // The number is drawn by CSS so the link's text stays the tab's name.
                      <span
                        className="tab-bar__badge"
                        data-count={count > 99 ? '99+' : String(count)}
                        aria-hidden="true"
                      />
                    )}
                  </span>
                  <span className="tab-bar__label">{label}</span>
                </NavLink>
              </li>
            );
          },
        )}
      </ul>
    </nav>
  );
});
