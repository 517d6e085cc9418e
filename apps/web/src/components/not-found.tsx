import { Link } from 'react-router';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { NoticePage } from './notice-card';

export const NotFound = () => {
  useDocumentTitle('ページが見つかりません');
  return (
    <NoticePage
      section="ページが見つかりません"
      title="ページが見つかりません"
      titleRight="404"
      lead="お探しのページは見つかりませんでした。"
      text="URLが間違っているか、ページが移動または削除された可能性があります。お手数ですが、トップページから目的のページをお探しください。"
      actions={
        <Link to="/" className="button button--primary">
          トップページへ戻る
        </Link>
      }
    />
  );
};
