import { Link } from 'react-router';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { PageHeader } from './page-header';

export const NotFound = () => {
  useDocumentTitle('ページが見つかりません');
  return (
    <>
      <PageHeader
        section="ページが見つかりません"
        title="ページが見つかりません"
        titleRight="404"
      />
      <div className="container section">
        <div className="notice-card">
          <p className="notice-card__lead">
            お探しのページは見つかりませんでした。
          </p>
          <p>
            URLが間違っているか、ページが移動または削除された可能性があります。お手数ですが、トップページから目的のページをお探しください。
          </p>
          <div className="button-row">
            <Link to="/" className="button button--primary">
              トップページへ戻る
            </Link>
          </div>
        </div>
      </div>
    </>
  );
};
