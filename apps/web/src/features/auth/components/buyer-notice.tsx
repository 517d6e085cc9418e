import { Link } from 'react-router';
import { useAppSelector } from '@/lib/store-hooks';
import { BUYER_READ_ONLY_NOTE, selectIsBuyer } from '../buyer-mode';

export const useIsBuyer = (): boolean => useAppSelector(selectIsBuyer);

/** Why a buyer (procurement check-in) sees no like, reserve, chat or edit actions. */
export const BuyerNotice = ({
  lead,
  showSearchLink = false,
}: {
  lead?: string;
  showSearchLink?: boolean;
}) => (
  <div className="notice-card buyer-notice" data-testid="buyer-notice">
    {lead && <p className="notice-card__lead">{lead}</p>}
    <p>{BUYER_READ_ONLY_NOTE}</p>
    {showSearchLink && (
      <div className="button-row">
        <Link to="/tabs/likes" className="button button--primary">
          プロを探す
        </Link>
      </div>
    )}
  </div>
);
