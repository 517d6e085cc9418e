import type { ReactNode, Ref } from 'react';

type FocusSectionProps = {
  /** The h2's id, which names the section. */
  id: string;
  title: ReactNode;
  /** The heading, for the screen to move focus to (tabIndex -1 lets it take it). */
  headingRef: Ref<HTMLHeadingElement>;
  className?: string;
  titleClassName: string;
  /** Its content is being fetched again (aria-busy). */
  busy?: boolean;
  children: ReactNode;
};

/**
 * A section named by its h2, where the screen sends focus once something
 * changed it (a form opened, a payment went through, a search ran), so a
 * screen reader starts reading there.
 */
export const FocusSection = ({
  id,
  title,
  headingRef,
  className,
  titleClassName,
  busy,
  children,
}: FocusSectionProps) => (
  <section className={className} aria-labelledby={id} aria-busy={busy}>
    <h2 id={id} ref={headingRef} tabIndex={-1} className={titleClassName}>
      {title}
    </h2>
    {children}
  </section>
);
