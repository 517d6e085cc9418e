import { Link, Navigate } from 'react-router';
import { useAppSelector } from '@/lib/store-hooks';
import { PageHeader } from '@/components/page-header';
import { selectAuthStatus } from '@/features/auth/auth-slice';
import { RegisterForm } from '@/features/auth/components/register-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

const RegisterRoute = () => {
  useDocumentTitle('新規会員登録');
  const status = useAppSelector(selectAuthStatus);
  // Registration logs the new member in; their area starts at the schedule.
  if (status === 'authenticated')
    return <Navigate to="/tabs/schedule" replace />;
  return (
    <>
      <PageHeader
        section="新規会員登録"
        title="新規会員登録"
        titleRight="SIGN UP"
        description="メールアドレスの確認、プロフィールの入力の順に、3ステップで登録できます。"
      />
      <div className="container section">
        <div className="auth-card">
          <RegisterForm />
          <p className="auth-card__footer">
            すでに会員の方は
            <Link to="/auth" className="text-link">
              ログイン
            </Link>
          </p>
        </div>
      </div>
    </>
  );
};

export default RegisterRoute;
