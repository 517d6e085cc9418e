import { Link } from 'react-router';
import { LabelValueTable } from '@/components/label-value-table';
import { PageHeader } from '@/components/page-header';
import { PageSection } from '@/components/page-section';
import { useDocumentTitle } from '@/hooks/use-document-title';

type MenuItem = { title: string; text: string };

type FeeRow = { label: string; value: string };

type MenuLink = { to: string; label: string };

export type MemberMenuContent = {
  /** Prefixes the section heading ids: 'pro' gives 'pro-benefits', 'pro-steps', 'pro-fees'. */
  idPrefix: string;
  /** The page's h1, breadcrumb section and document title. */
  title: string;
  titleRight: string;
  description: string;
  benefitsTitle: string;
  benefits: readonly MenuItem[];
  stepsTitle: string;
  steps: readonly MenuItem[];
  stepsNote: string;
  feesCaption: string;
  fees: readonly FeeRow[];
  feesNote?: string;
  primaryAction: MenuLink;
  secondaryAction: MenuLink;
};

type MemberMenuPageProps = { content: MemberMenuContent };

/** The pro and amateur member menus: one layout, each route supplies its own texts. */
export const MemberMenuPage = ({ content }: MemberMenuPageProps) => {
  useDocumentTitle(content.title);
  const benefitsId = `${content.idPrefix}-benefits`;
  const stepsId = `${content.idPrefix}-steps`;
  const feesId = `${content.idPrefix}-fees`;
  return (
    <>
      <PageHeader
        section={content.title}
        title={content.title}
        titleRight={content.titleRight}
        description={content.description}
      />

      <PageSection id={benefitsId} title={content.benefitsTitle}>
        <ul className="benefit-grid">
          {content.benefits.map((b) => (
            <li key={b.title} className="benefit">
              <h3 className="benefit__title">{b.title}</h3>
              <p>{b.text}</p>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection id={stepsId} title={content.stepsTitle} tinted>
        <ol className="steps">
          {content.steps.map((s, i) => (
            <li key={s.title} className="steps__item">
              <span className="steps__number" aria-hidden="true">
                {i + 1}
              </span>
              <div>
                <h3 className="steps__title">{s.title}</h3>
                <p>{s.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <p className="muted">{content.stepsNote}</p>
      </PageSection>

      <PageSection id={feesId} title="料金">
        <div className="table-scroll">
          <LabelValueTable
            className="data-table"
            caption={content.feesCaption}
            rows={content.fees}
          />
        </div>
        {content.feesNote && <p className="muted">{content.feesNote}</p>}
        <div className="button-row">
          <Link
            to={content.primaryAction.to}
            className="button button--primary button--large"
          >
            {content.primaryAction.label}
          </Link>
          <Link
            to={content.secondaryAction.to}
            className="button button--outline button--large"
          >
            {content.secondaryAction.label}
          </Link>
        </div>
      </PageSection>
    </>
  );
};
