import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Crumb = { label: string; to?: string };

type BreadcrumbProps = { items: readonly Crumb[] };

/** トップページ / section / optional subtitle; the last item is the current page. */
export const Breadcrumb = ({ items }: BreadcrumbProps) => (
  <nav className="breadcrumb" aria-label="パンくずリスト">
    <ol className="breadcrumb__list container">
      <li className="breadcrumb__item">
        <Link to="/">トップページ</Link>
      </li>
      {items.map((item, i) => {
        const last = i === items.length - 1;
        return (
          <li key={`${item.label}-${i}`} className="breadcrumb__item">
            {item.to && !last ? (
              <Link to={item.to}>{item.label}</Link>
            ) : (
              <span aria-current={last ? 'page' : undefined}>{item.label}</span>
            )}
          </li>
        );
      })}
    </ol>
  </nav>
);

type PageHeaderProps = {
  /** The section title shown in the breadcrumb. */
  section: string;
  sectionTo?: string;
  subtitle?: string;
  /** The page's h1; omit it for pages without a title block. */
  title?: string;
  /** A secondary title shown on the right of the title block (e.g. the English name). */
  titleRight?: string;
  description?: ReactNode;
};

export const PageHeader = ({
  section,
  sectionTo,
  subtitle,
  title,
  titleRight,
  description,
}: PageHeaderProps) => {
  const crumbs: Crumb[] = [
    { label: section, to: subtitle ? sectionTo : undefined },
  ];
  if (subtitle) crumbs.push({ label: subtitle });
  return (
    <div className="page-header">
      <Breadcrumb items={crumbs} />
      {title && (
        <div className="title-block">
          <div className="container title-block__inner">
            <div className="title-block__main">
              <h1 className="title-block__title">{title}</h1>
              {description && (
                <div className="title-block__description">{description}</div>
              )}
            </div>
            {titleRight && (
              <p className="title-block__right" aria-hidden="true">
                {titleRight}
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  );
};
