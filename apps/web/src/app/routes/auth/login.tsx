import { ComingSoon } from '@/components/coming-soon';

const LoginRoute = () => (
  <ComingSoon
    section="ログイン"
    title="ログイン"
    description="会員の皆さまのログイン機能を準備しています。ログイン後は、プロとのラウンドレッスンの予約やチャットをご利用いただけるようになります。"
  />
);

export default LoginRoute;
