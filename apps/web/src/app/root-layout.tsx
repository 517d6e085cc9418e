import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import {
  Outlet,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
} from 'react-router';
import { ReloadPageButton } from '@/components/form/form-actions';
import { NotFound } from '@/components/not-found';
import { OfflineNotice } from '@/components/offline-notice';
import { NoticePage } from '@/components/notice-card';
import { SiteFooter } from '@/components/site-footer';
import { SiteHeader } from '@/components/site-header';
import { retryRenewalNow } from '@/features/auth/auth-session';
import {
  selectConnectionProblem,
  selectHoldsLogin,
} from '@/features/auth/auth-slice';
import { selectIsBuyer } from '@/features/auth/buyer-mode';
import { ProcurementReturn } from '@/features/auth/components/procurement-return';
import { useAppSelector } from '@/lib/store-hooks';
import { Spinner } from '@/components/spinner';

/**
 * The connection notice, with 今すぐ再接続 while a member's login waits to be
 * renewed and the browser is online (a login not confirmed yet has the
 * button on its waiting page instead).
 */
const ConnectionNotice = () => {
  const store = useStore();
  const problem = useAppSelector(selectConnectionProblem);
  const canRetry = useAppSelector(
    ({ auth }) =>
      auth.browserOnline &&
      auth.renewalProblem !== null &&
      auth.status === 'authenticated',
  );
  const retry = useCallback(() => void retryRenewalNow(store), [store]);
  return (
    <OfflineNotice problem={problem} onRetry={canRetry ? retry : undefined} />
  );
};

const Shell = ({ children }: { children: ReactNode }) => {
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  const holdsLogin = useAppSelector(selectHoldsLogin);
  const isBuyer = useAppSelector(selectIsBuyer);

  // After a client-side navigation, start screen readers and keyboards at the new content.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className="app-shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // The hash router owns location.hash, so move focus without touching it.
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        本文へスキップ
      </a>
      {/* A stored login being restored (or waiting for the network) counts as
          logged in, so the header neither flickers nor offers a needless login. */}
      <SiteHeader
        loggedIn={holdsLogin}
        extraAction={isBuyer ? <ProcurementReturn /> : null}
      />
      <ConnectionNotice />
      <main id="main" ref={mainRef} tabIndex={-1} className="site-main">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
};

export const RootLayout = () => (
  <Shell>
    <ScrollRestoration />
    <Outlet />
  </Shell>
);

/** Shown while the first page's code is still loading. */
export const RootFallback = () => (
  <Shell>
    <div className="page-loading page-loading--screen">
      <Spinner />
    </div>
  </Shell>
);

export const RootError = () => {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Shell>
        <NotFound />
      </Shell>
    );
  }
  return (
    <Shell>
      <NoticePage
        section="エラー"
        title="ページを表示できませんでした"
        lead="申し訳ありません。ページの読み込み中に問題が発生しました。"
        text="通信環境をご確認のうえ、ページを再読み込みしてください。"
        actions={<ReloadPageButton className="button button--primary" />}
      />
    </Shell>
  );
};
