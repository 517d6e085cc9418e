import { ComingSoon } from '@/components/coming-soon';

const ResetRoute = () => (
  <ComingSoon
    section="パスワード再設定"
    title="パスワード再設定"
    description="ご登録のメールアドレスに確認コードをお送りして、パスワードを再設定できる機能を準備しています。"
  />
);

export default ResetRoute;
