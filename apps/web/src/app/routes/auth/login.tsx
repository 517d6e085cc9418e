import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '@/lib/store-hooks';
import { PageHeader } from '@/components/page-header';
import { selectAuthStatus } from '@/features/auth/auth-slice';
import { LoginForm } from '@/features/auth/components/login-form';
import { afterLoginPath } from '@/features/auth/components/require-login';
import { useDocumentTitle } from '@/hooks/use-document-title';

const LoginRoute = () => {
  useDocumentTitle('ログイン');
  const status = useAppSelector(selectAuthStatus);
  const state: unknown = useLocation().state;
  // Once logged in, continue to the member page that sent the person here.
  if (status === 'authenticated')
    return <Navigate to={afterLoginPath(state)} replace />;
  return (
    <>
      <PageHeader
        section="ログイン"
        title="ログイン"
        titleRight="LOGIN"
        description="会員の方は、ご登録のメールアドレスとパスワードでログインしてください。"
      />
      <div className="container section">
        <div className="auth-card">
          <LoginForm />
        </div>
      </div>
    </>
  );
};

export default LoginRoute;
