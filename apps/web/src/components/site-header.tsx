import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { CloseIcon, MailIcon, MenuIcon, ShareIcon, UserIcon } from './icons';
import { HomeLink } from './home-link';
import { NAV_LINKS } from './nav-links';

type SiteHeaderProps = {
  /** Shows マイページ instead of ログイン. */
  loggedIn?: boolean;
  /** Shown before the account link, e.g. buyer mode's 購買システムに戻る. */
  extraAction?: ReactNode;
};

export const SiteHeader = ({
  loggedIn = false,
  extraAction,
}: SiteHeaderProps) => {
  const navId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  // The menu remembers the page it was opened on, so any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = useCallback(
    (next: boolean | ((was: boolean) => boolean)) =>
      setOpenOn((prev) => {
        const was = prev === pathname;
        const value = typeof next === 'function' ? next(was) : next;
        return value ? pathname : null;
      }),
    [pathname],
  );

  const close = useCallback(
    (returnFocus: boolean) => {
      setOpen(false);
      if (returnFocus) toggleRef.current?.focus();
    },
    [setOpen],
  );

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);

  return (
    <header className="site-header">
      <div className="site-header__bar container">
        <HomeLink className="site-header__logo" />
        <div className="site-header__actions">
          {extraAction}
          <Link
            to={loggedIn ? '/tabs/schedule' : '/auth'}
            className="site-header__account"
          >
            <UserIcon width={20} height={20} />
            {loggedIn ? 'マイページ' : 'ログイン'}
          </Link>
          <button
            ref={toggleRef}
            type="button"
            className="site-header__toggle"
            aria-expanded={open}
            aria-controls={navId}
            aria-label="メニュー"
            onClick={() => setOpen((v) => !v)}
          >
            {open ? (
              <CloseIcon width={24} height={24} />
            ) : (
              <MenuIcon width={24} height={24} />
            )}
            {/* The visible word stays メニュー so it always matches the accessible name. */}
            <span className="site-header__toggle-text" aria-hidden="true">
              メニュー
            </span>
          </button>
        </div>
        <nav
          id={navId}
          className={`site-nav${open ? ' is-open' : ''}`}
          aria-label="メインメニュー"
        >
          <ul className="site-nav__list">
            {NAV_LINKS.map((item) => (
              <li key={item.to} className="site-nav__item">
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    [
                      'site-nav__link',
                      item.variant ? `site-nav__link--${item.variant}` : '',
                      isActive ? 'is-active' : '',
                    ]
                      .filter(Boolean)
                      .join(' ')
                  }
                  onClick={() => setOpen(false)}
                >
                  {item.variant === 'share' && (
                    <ShareIcon width={18} height={18} />
                  )}
                  {item.variant === 'contact' && (
                    <MailIcon width={18} height={18} />
                  )}
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
};
