import type { ReactNode } from 'react';

type InPageLinkProps = { targetId: string; children: ReactNode };

/**
 * A link to a heading further down the same page (a table of contents).
 * The hash router owns location.hash, so it scrolls without changing it.
 */
export const InPageLink = ({ targetId, children }: InPageLinkProps) => (
  <a
    href={`#${targetId}`}
    onClick={(e) => {
      e.preventDefault();
      document.getElementById(targetId)?.scrollIntoView({ behavior: 'smooth' });
    }}
  >
    {children}
  </a>
);
