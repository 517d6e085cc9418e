import type { ComponentType, SVGProps } from 'react';
import { NavLink } from 'react-router';
import {
  CalendarIcon,
  ChatIcon,
  HeartIcon,
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

/**
 * The member area's five tabs: a bar fixed to the bottom on phones, a strip
 * under the header on wider screens. NavLink marks the active one with
 * aria-current="page".
 */
export const MemberTabBar = () => (
  <nav className="tab-bar" aria-label="会員メニュー">
    <ul className="tab-bar__list">
      {TABS.map(({ to, label, Icon }) => (
        <li key={to} className="tab-bar__item">
          <NavLink to={to} className="tab-bar__link">
            <Icon className="tab-bar__icon" width={24} height={24} />
            <span className="tab-bar__label">{label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  </nav>
);
