import { Link } from 'react-router';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { PageHeader } from './page-header';

type ComingSoonProps = { section: string; title: string; description: string };

/** An honest placeholder for member features that later releases bring. */
export const ComingSoon = ({
  section,
  title,
  description,
}: ComingSoonProps) => {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader section={section} title={title} titleRight="COMING SOON" />
      <div className="container section">
        <div className="notice-card">
          <p className="notice-card__lead">この機能は現在準備中です</p>
          <p>{description}</p>
          <p>
            公開まで今しばらくお待ちください。ご不明な点はお問い合わせフォームからご連絡ください。
          </p>
          <div className="button-row">
            <Link to="/" className="button button--primary">
              トップページへ戻る
            </Link>
            <Link to="/contact" className="button button--outline">
              お問い合わせ
            </Link>
          </div>
        </div>
      </div>
    </>
  );
};
