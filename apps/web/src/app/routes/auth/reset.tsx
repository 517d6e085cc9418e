import { AuthPage } from '@/features/auth/components/auth-page';
import { ResetForm } from '@/features/auth/components/reset-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

const ResetRoute = () => {
  useDocumentTitle('パスワード再設定');
  return (
    <AuthPage
      title="パスワード再設定"
      titleRight="RESET PASSWORD"
      description="ご登録のメールアドレスに届く認証コードで、新しいパスワードを設定できます。"
    >
      <ResetForm />
    </AuthPage>
  );
};

export default ResetRoute;
