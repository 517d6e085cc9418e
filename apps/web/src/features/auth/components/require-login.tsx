import { useDeferredValue, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '@/lib/store-hooks';
import { NoticePage } from '@/components/notice-card';
import { Spinner } from '@/components/spinner';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { retryRenewalNow } from '../auth-session';
import { selectAuthStatus, selectNeedsTermsAgreement } from '../auth-slice';
import { TermsGate } from './terms-gate';

/** Where the login page sends the person back to after logging in. */
export type LoginRedirectState = { from?: string };

/**
 * A stored login that could not be confirmed yet (no network, a busy
 * server): the member is still logged in, so no login form; the page
 * appears by itself once the connection is back.
 */
const WaitingForConnection = () => {
  useDocumentTitle('接続を待っています');
  const store = useStore();
  const browserOnline = useAppSelector((state) => state.auth.browserOnline);
  return (
    <NoticePage
      section="会員メニュー"
      title="接続を待っています"
      titleRight="RECONNECTING"
      className="session-waiting"
      lead="ログイン状態はこの端末に保存されています。"
      text="接続が戻ると自動で再接続し、このページを表示します。もう一度ログインする必要はありません。"
      actions={
        browserOnline && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => void retryRenewalNow(store)}
          >
            今すぐ再接続
          </button>
        )
      }
    />
  );
};

/**
 * The spinner of a stored login being confirmed; `screen`: as tall as the
 * screen. It stands in for the page (`page-loading--restoring`), so the
 * app-wide spinner stays hidden meanwhile (components.css).
 */
export const RestoringLogin = ({ screen = false }: { screen?: boolean }) => (
  <div
    className={`page-loading page-loading--restoring${screen ? ' page-loading--screen' : ''}`}
  >
    <Spinner label="ログイン状態を確認しています" />
  </div>
);

/**
 * Member pages need a login: without one they go to `#/auth`, which comes back
 * here afterwards. A member who has not agreed to the 利用規約 in force is
 * asked first (TermsGate). While a stored login is being restored they wait, and
 * while it waits for the network they say so.
 */
export const RequireLogin = ({
  children,
  restoring,
}: {
  children: ReactNode;
  /** What shows while a stored login is being confirmed, in place of a spinner. */
  restoring?: ReactNode;
}) => {
  // The step from a stored login being confirmed to the member area is
  // deferred: the page is a large tree, rendered in the background (React
  // yields to input every few ms) while the tab shown meanwhile stays
  // responsive. Any other change (a logout, an ended login) shows at once.
  const live = useAppSelector(selectAuthStatus);
  const deferred = useDeferredValue(live);
  const status =
    live === 'authenticated' && deferred === 'restoring' ? deferred : live;
  const needsTerms = useAppSelector(selectNeedsTermsAgreement);
  const { pathname, search } = useLocation();
  if (status === 'restoring') return restoring ?? <RestoringLogin screen />;
  if (status === 'reconnecting') return <WaitingForConnection />;
  if (status === 'loggedOut') return <Navigate to="/auth" replace />;
  if (status !== 'authenticated') {
    const state: LoginRedirectState = { from: `${pathname}${search}` };
    return <Navigate to="/auth" replace state={state} />;
  }
  // A member who has not agreed to the terms in force sees nothing else
  // (README, Reviews, trust and the legal pages).
  if (needsTerms) return <TermsGate />;
  return children;
};

/**
 * Only member pages are valid targets (the tabs, and the payment step, 領収書
 * and 売上明細 that mails link to), so a crafted state cannot send people elsewhere.
 */
export const afterLoginPath = (state: unknown): string => {
  const from =
    typeof state === 'object' && state !== null
      ? (state as LoginRedirectState).from
      : undefined;
  return typeof from === 'string' &&
    /^\/(tabs|payment|receipt|sales)(\/|\?|$)/.test(from)
    ? from
    : '/tabs/schedule';
};
