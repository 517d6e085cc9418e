import { PageHeader } from '@/components/page-header';
import { ResetForm } from '@/features/auth/components/reset-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

const ResetRoute = () => {
  useDocumentTitle('パスワード再設定');
  return (
    <>
      <PageHeader
        section="パスワード再設定"
        title="パスワード再設定"
        titleRight="RESET PASSWORD"
        description="ご登録のメールアドレスに届く認証コードで、新しいパスワードを設定できます。"
      />
      <div className="container section">
        <div className="auth-card">
          <ResetForm />
        </div>
      </div>
    </>
  );
};

export default ResetRoute;
