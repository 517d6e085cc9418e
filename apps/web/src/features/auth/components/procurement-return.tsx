import { useState, type FormEvent } from 'react';
import { buildOrderMessage, readCheckinRecord } from '../buyer-mode';

/**
 * Buyer mode's way back: a real form POST to the purchasing system's
 * BrowserFormPost URL carrying a PunchOutOrderMessage (cXML, urlencoded) with
 * the buyer's cookie, as punch-out requires.
 */
export const ProcurementReturn = () => {
  const [record] = useState(readCheckinRecord);
  if (!record) return null;
  // Written as the form is sent so the message's timestamp is current.
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const field = e.currentTarget.elements.namedItem('cxml-urlencoded');
    if (field instanceof HTMLInputElement)
      field.value = buildOrderMessage(record);
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
