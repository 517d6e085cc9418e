import { ComingSoon } from '@/components/coming-soon';

const RegisterRoute = () => (
  <ComingSoon
    section="新規会員登録"
    title="新規会員登録"
    description="プロ会員・アマチュア会員の新規登録機能を準備しています。メールアドレスの確認コードによる、安全な登録手続きをご用意する予定です。"
  />
);

export default RegisterRoute;
