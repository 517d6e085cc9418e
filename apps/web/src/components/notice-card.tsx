import type { ReactNode } from 'react';
import { PageHeader } from './page-header';

type NoticeCardProps = {
  /** The first, larger line. */
  lead?: ReactNode;
  /** The explanation under it, as a paragraph. */
  text?: ReactNode;
  /** Buttons or links, in a row at the bottom. */
  actions?: ReactNode;
  className?: string;
};

/** A card that explains why a page shows nothing (404, no permission, …). */
export const NoticeCard = ({
  lead,
  text,
  actions,
  className,
}: NoticeCardProps) => (
  <div className={className ? `notice-card ${className}` : 'notice-card'}>
    {lead && <p className="notice-card__lead">{lead}</p>}
    {text && <p>{text}</p>}
    {actions && <div className="button-row">{actions}</div>}
  </div>
);

type NoticePageProps = NoticeCardProps & {
  /** The breadcrumb's section. */
  section: string;
  title: string;
  titleRight?: string;
};

/** A whole page that is only a notice card under its header. */
export const NoticePage = ({
  section,
  title,
  titleRight,
  ...card
}: NoticePageProps) => (
  <>
    <PageHeader section={section} title={title} titleRight={titleRight} />
    <div className="container section">
      <NoticeCard {...card} />
    </div>
  </>
);
