import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { IndexedSection, SectionIndex } from '@/components/in-page-link';
import { PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { TERMS_VERSION, termsVersionDate } from '@proam/contract';

export type LegalSection = {
  /** The anchor of the section (table of contents). */
  id: string;
  title: string;
} & (
  | { body: ReactNode }
  /** Numbered clauses (項), the usual shape of a section. */
  | { clauses: readonly ReactNode[] }
);

type LegalDocumentProps = {
  title: string;
  titleRight: string;
  description: ReactNode;
  /** The 制定日 as `YYYY-MM-DD`; the terms' version unless the page has its own. */
  version?: string;
  /** Text before the first section (the preamble). */
  lead?: ReactNode;
  sections?: readonly LegalSection[];
  /** Content other than sections (the 特定商取引法 table). */
  children?: ReactNode;
  /** A table of contents for long texts. */
  toc?: boolean;
  /** Text after the last section (以上, the operator). */
  closing?: ReactNode;
};

/** The other legal pages, linked at the end of each. */
const LEGAL_PAGES = [
  { to: '/terms', label: '利用規約' },
  { to: '/privacy', label: 'プライバシーポリシー' },
  { to: '/tokushoho', label: '特定商取引法に基づく表記' },
] as const;

const sectionBody = (s: LegalSection) =>
  'clauses' in s ? (
    <ol>
      {s.clauses.map((clause, i) => (
        <li key={i}>{clause}</li>
      ))}
    </ol>
  ) : (
    s.body
  );

/**
 * One legal page: the title block, the effective date, numbered sections
 * with a table of contents, and links to the other legal pages.
 */
export const LegalDocument = ({
  title,
  titleRight,
  description,
  version = TERMS_VERSION,
  lead,
  sections = [],
  children,
  toc = false,
  closing,
}: LegalDocumentProps) => {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader
        section={title}
        title={title}
        titleRight={titleRight}
        description={description}
      />
      <div className="container section narrow legal">
        <p className="legal__version">
          <span className="legal__version-label">制定日</span>
          <time dateTime={version}>{termsVersionDate(version)}</time>
        </p>
        {lead && <div className="legal__lead">{lead}</div>}
        {toc && (
          <nav className="legal__toc" aria-label="目次">
            <h2 className="legal__toc-title">目次</h2>
            <SectionIndex sections={sections} idPrefix="legal" numbered />
          </nav>
        )}
        {sections.map((s) => (
          <IndexedSection
            key={s.id}
            section={s}
            idPrefix="legal"
            className="legal__section"
            headingClassName="legal__heading"
          >
            <div className="legal__body">{sectionBody(s)}</div>
          </IndexedSection>
        ))}
        {children}
        {closing && <div className="legal__closing">{closing}</div>}
        <nav className="legal__related" aria-label="関連する規約">
          <ul>
            {LEGAL_PAGES.filter((p) => p.label !== title).map((p) => (
              <li key={p.to}>
                <Link to={p.to}>{p.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </>
  );
};
