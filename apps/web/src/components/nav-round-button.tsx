import { Link } from 'react-router';

type Arrow = { label: string; arrow: '‹' | '›' };

/** A round ‹ / › button: previous or next (a month, …). */
export const NavRoundButton = ({
  label,
  arrow,
  onClick,
}: Arrow & { onClick: () => void }) => (
  <button
    type="button"
    className="nav-round-button"
    aria-label={label}
    onClick={onClick}
  >
    <span aria-hidden="true">{arrow}</span>
  </button>
);

/** The round ‹ link back to a list. */
export const NavRoundLink = ({ label, to }: { label: string; to: string }) => (
  <Link to={to} className="nav-round-button" aria-label={label}>
    <span aria-hidden="true">‹</span>
  </Link>
);
