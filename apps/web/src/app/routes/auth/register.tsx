import { Link, Navigate } from 'react-router';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthStatus } from '@/features/auth/auth-slice';
import { AuthPage } from '@/features/auth/components/auth-page';
import { RegisterForm } from '@/features/auth/components/register-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

const RegisterRoute = () => {
  useDocumentTitle('新規会員登録');
  const status = useAppSelector(selectAuthStatus);
  // Registration logs the new member in; their area starts at the schedule.
  if (status === 'authenticated')
    return <Navigate to="/tabs/schedule" replace />;
  return (
    <AuthPage
      title="新規会員登録"
      titleRight="SIGN UP"
      description="メールアドレスの確認、プロフィールの入力の順に、3ステップで登録できます。"
    >
      <RegisterForm />
      <p className="auth-card__footer">
        すでに会員の方は
        <Link to="/auth" className="text-link">
          ログイン
        </Link>
      </p>
    </AuthPage>
  );
};

export default RegisterRoute;
