import { TERMS_VERSION, termsVersionDate } from '@proam/contract';
import { useId, useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useModalDialog } from '@/hooks/use-modal-dialog';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import { useAppDispatch } from '@/lib/store-hooks';
import { useAcceptTermsMutation, useLogoutMutation } from '../auth-api';
import { loggedOut } from '../auth-slice';
import { BusyButton, ReloadPageButton } from '@/components/form/form-actions';

/** The legal pages open in a new tab, so the agreement and the member's place stay. */
export const LegalLink = ({ to, label }: { to: string; label: string }) => (
  <a href={`#${to}`} target="_blank" rel="noopener">
    {label}
    <span className="visually-hidden">（新しいタブで開きます）</span>
  </a>
);

/**
 * Asked after a login whose member has not agreed to the 利用規約 in force
 * (never, or an older version): a modal on the native <dialog> that only
 * 同意する or ログアウト closes (Escape does nothing), over a page that says
 * the same, so the member area stays closed until then.
 */
export const TermsGate = () => {
  useDocumentTitle('利用規約への同意');
  // Open from the start until the member agrees or logs out.
  const ref = useModalDialog(true);
  const titleId = useId();
  const bodyId = useId();
  const dispatch = useAppDispatch();
  const [accept, { isLoading: accepting }] = useAcceptTermsMutation();
  const [logout, { isLoading: leaving }] = useLogoutMutation();
  const busy = accepting || leaving;
  // This page was built before the terms in force: only a reload shows them.
  const [stale, setStale] = useState(false);
  const date = termsVersionDate(TERMS_VERSION);

  const onAccept = async () => {
    const error = apiErrorOf(await accept({ version: TERMS_VERSION }));
    if (fieldOfValidationError(error, ['version'] as const)) setStale(true);
  };

  const onLogout = async () => {
    // Ends the login on the server; locally it ends whatever the answer.
    await logout();
    dispatch(loggedOut());
  };

  return (
    <>
      <PageHeader
        section="会員メニュー"
        title="利用規約への同意"
        titleRight="TERMS"
      />
      <div className="container section narrow">
        <p>
          会員向けの機能をご利用いただくには、利用規約とプライバシーポリシーへの同意が必要です。
        </p>
      </div>
      <dialog
        ref={ref}
        className="alert-dialog confirm-dialog terms-gate"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onCancel={(e) => e.preventDefault()}
      >
        <form
          className="alert-dialog__body"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!busy) void onAccept();
          }}
        >
          <h2 id={titleId} className="confirm-dialog__title">
            利用規約への同意のお願い
          </h2>
          <div id={bodyId} className="confirm-dialog__message">
            <p>
              {date}
              制定の利用規約とプライバシーポリシーをご確認のうえ、同意してください。同意いただくまで、会員向けの機能はご利用いただけません。
            </p>
          </div>
          {stale && (
            <p className="form-field__error" role="alert">
              利用規約が改定されています。ページを再読み込みして、最新の利用規約をご確認ください。{' '}
              <ReloadPageButton className="link-button" />
            </p>
          )}
          <ul className="terms-gate__links">
            <li>
              <LegalLink to="/terms" label="利用規約" />
            </li>
            <li>
              <LegalLink to="/privacy" label="プライバシーポリシー" />
            </li>
          </ul>
          <div className="confirm-dialog__actions">
            <BusyButton
              className="button button--outline"
              busy={leaving}
              busyLabel="ログアウト中…"
              label="ログアウト"
              disabled={busy}
              onClick={() => void onLogout()}
            />
            <BusyButton
              type="submit"
              className="button button--primary"
              busy={accepting}
              busyLabel="送信中…"
              label="同意する"
              disabled={busy}
            />
          </div>
        </form>
      </dialog>
    </>
  );
};
