import { useEffect, useRef, type ReactNode } from 'react';
import {
  Outlet,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
} from 'react-router';
import { NotFound } from '@/components/not-found';
import { PageHeader } from '@/components/page-header';
import { SiteFooter } from '@/components/site-footer';
import { SiteHeader } from '@/components/site-header';
import { selectAuthStatus } from '@/features/auth/auth-slice';
import { selectIsBuyer } from '@/features/auth/buyer-mode';
import { ProcurementReturn } from '@/features/auth/components/procurement-return';
import { useAppSelector } from './hooks';
import { Spinner } from '@/components/spinner';

const Shell = ({ children }: { children: ReactNode }) => {
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  const authStatus = useAppSelector(selectAuthStatus);
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
      {/* A stored login being restored counts as logged in, so the header does not flicker. */}
      <SiteHeader
        loggedIn={authStatus === 'authenticated' || authStatus === 'restoring'}
        extraAction={isBuyer ? <ProcurementReturn /> : null}
      />
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
    <div className="page-loading">
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
      <PageHeader section="エラー" title="ページを表示できませんでした" />
      <div className="container section">
        <div className="notice-card">
          <p className="notice-card__lead">
            申し訳ありません。ページの読み込み中に問題が発生しました。
          </p>
          <p>通信環境をご確認のうえ、ページを再読み込みしてください。</p>
          <div className="button-row">
            <button
              type="button"
              className="button button--primary"
              onClick={() => window.location.reload()}
            >
              再読み込み
            </button>
          </div>
        </div>
      </div>
    </Shell>
  );
};
