import { Link } from 'react-router';
import { Logo } from './logo';

type HomeLinkProps = { className: string; inverted?: boolean };

/** The wordmark as the link to the top page, in the header and the footer. */
export const HomeLink = ({ className, inverted }: HomeLinkProps) => (
  <Link to="/" className={className} aria-label="ProAm Connect トップページ">
    <Logo inverted={inverted} />
  </Link>
);
