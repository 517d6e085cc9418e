import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/lib/store-hooks';
import { loggedOut } from '../auth-slice';
import {
  buildOrderMessage,
  endBuyerSession,
  readCheckinRecord,
} from '../buyer-mode';
import { readRefreshToken } from '../token-storage';

/**
 * Buyer mode's way back: a real form POST to the purchasing system's
 * BrowserFormPost URL carrying a PunchOutOrderMessage (cXML, urlencoded) with
 * the buyer's cookie, as punch-out requires. Sending it ends the buyer
 * session (buyer-mode.ts `endBuyerSession`).
 */
export const ProcurementReturn = () => {
  const [record] = useState(readCheckinRecord);
  const dispatch = useAppDispatch();

  // Back from the purchasing system through the browser's page cache: the
  // session ended when the basket went back, so the page must not pretend.
  useEffect(() => {
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted && !readRefreshToken()) dispatch(loggedOut());
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [dispatch]);

  if (!record) return null;
  // Written as the form is sent so the message's timestamp is current.
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const field = e.currentTarget.elements.namedItem('cxml-urlencoded');
    if (field instanceof HTMLInputElement)
      field.value = buildOrderMessage(record);
    endBuyerSession();
  };
  return (
    <form
      method="post"
      action={record.punchOutSetupRequest.browserFormPost}
      className="site-header__procurement"
      onSubmit={onSubmit}
    >
      <input type="hidden" name="cxml-urlencoded" defaultValue="" />
      <button
        type="submit"
        className="button button--outline site-header__return"
      >
        購買システムに戻る
      </button>
    </form>
  );
};
