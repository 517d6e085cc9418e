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

type Titled = { id: string; title: string };

/** The prefix keeps the heading ids of one page apart from the others'. */
const headingId = (idPrefix: string, section: Titled) =>
  `${idPrefix}-${section.id}`;

type SectionIndexProps = {
  sections: readonly Titled[];
  idPrefix: string;
  numbered?: boolean;
};

/** The list of a table of contents: a link to each IndexedSection's heading. */
export const SectionIndex = ({
  sections,
  idPrefix,
  numbered = false,
}: SectionIndexProps) => {
  const List = numbered ? 'ol' : 'ul';
  return (
    <List>
      {sections.map((s) => (
        <li key={s.id}>
          <InPageLink targetId={headingId(idPrefix, s)}>{s.title}</InPageLink>
        </li>
      ))}
    </List>
  );
};

type IndexedSectionProps = {
  section: Titled;
  idPrefix: string;
  className: string;
  headingClassName: string;
  children: ReactNode;
};

/** A section under its title, which a SectionIndex links to. */
export const IndexedSection = ({
  section,
  idPrefix,
  className,
  headingClassName,
  children,
}: IndexedSectionProps) => (
  <section className={className} aria-labelledby={headingId(idPrefix, section)}>
    <h2 id={headingId(idPrefix, section)} className={headingClassName}>
      {section.title}
    </h2>
    {children}
  </section>
);
