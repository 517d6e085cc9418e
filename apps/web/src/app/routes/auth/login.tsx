import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthStatus } from '@/features/auth/auth-slice';
import { AuthPage } from '@/features/auth/components/auth-page';
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
    <AuthPage
      title="ログイン"
      titleRight="LOGIN"
      description="会員の方は、ご登録のメールアドレスとパスワードでログインしてください。"
    >
      <LoginForm />
    </AuthPage>
  );
};

export default LoginRoute;
