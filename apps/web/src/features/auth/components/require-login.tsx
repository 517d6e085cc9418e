import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { Spinner } from '@/components/spinner';
import { selectAuthStatus } from '../auth-slice';

/** Where the login page sends the person back to after logging in. */
export type LoginRedirectState = { from?: string };

/**
 * Member pages need a login: without one they go to `#/auth`, which comes back
 * here afterwards. While a stored login is being restored they wait.
 */
export const RequireLogin = ({ children }: { children: ReactNode }) => {
  const status = useAppSelector(selectAuthStatus);
  const { pathname, search } = useLocation();
  if (status === 'restoring') {
    return (
      <div className="page-loading">
        <Spinner label="ログイン状態を確認しています" />
      </div>
    );
  }
  if (status === 'loggedOut') return <Navigate to="/auth" replace />;
  if (status !== 'authenticated') {
    const state: LoginRedirectState = { from: `${pathname}${search}` };
    return <Navigate to="/auth" replace state={state} />;
  }
  return children;
};

/** Only member pages are valid targets, so a crafted state cannot send people elsewhere. */
export const afterLoginPath = (state: unknown): string => {
  const from =
    typeof state === 'object' && state !== null
      ? (state as LoginRedirectState).from
      : undefined;
  return typeof from === 'string' && /^\/tabs(\/|$)/.test(from)
    ? from
    : '/tabs/schedule';
};
