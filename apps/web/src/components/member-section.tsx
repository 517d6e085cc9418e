import type { ReactNode } from 'react';

type MemberSectionProps = {
  /** The heading's id, which names the section. */
  id: string;
  title: ReactNode;
  /** Added to `member-section`. */
  className?: string;
  /** Beside the heading (a count). */
  aside?: ReactNode;
  children: ReactNode;
};

/** A titled block of the member pages (プロフィール写真, 通知設定, いいね, …). */
export const MemberSection = ({
  id,
  title,
  className,
  aside,
  children,
}: MemberSectionProps) => {
  const heading = (
    <h2 id={id} className="member-section__title">
      {title}
    </h2>
  );
  return (
    <section
      className={className ? `member-section ${className}` : 'member-section'}
      aria-labelledby={id}
    >
      {aside === undefined ? (
        heading
      ) : (
        <div className="member-section__head">
          {heading}
          {aside}
        </div>
      )}
      {children}
    </section>
  );
};
