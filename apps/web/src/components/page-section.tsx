import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRightIcon } from './icons';

type PageSectionProps = {
  /** The h2's id: the section is named by its heading. */
  id: string;
  title: ReactNode;
  /** The small label above the title (SERVICE, NEWS…). */
  eyebrow?: string;
  /** The alternate background, so neighbouring bands stand apart. */
  tinted?: boolean;
  /** The reading width of text pages. */
  narrow?: boolean;
  /** A link beside the heading to the whole list (一覧を見る). */
  more?: { to: string; label: string };
  children: ReactNode;
};

/**
 * One band of a public page (the top page, 会社概要, the member menus): a
 * section named by its h2, on the page's container.
 */
export const PageSection = ({
  id,
  title,
  eyebrow,
  tinted = false,
  narrow = false,
  more,
  children,
}: PageSectionProps) => {
  const heading = (
    <>
      {eyebrow && <p className="section__eyebrow">{eyebrow}</p>}
      <h2 id={id} className="section__title">
        {title}
      </h2>
    </>
  );
  return (
    <section
      className={tinted ? 'section section--tinted' : 'section'}
      aria-labelledby={id}
    >
      <div className={narrow ? 'container narrow' : 'container'}>
        {more ? (
          <div className="section__head">
            <div>{heading}</div>
            <Link to={more.to} className="text-link">
              {more.label}
              <ChevronRightIcon width={18} height={18} />
            </Link>
          </div>
        ) : (
          heading
        )}
        {children}
      </div>
    </section>
  );
};
