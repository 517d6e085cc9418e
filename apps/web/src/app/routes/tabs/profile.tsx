import { ComingSoon } from '@/components/coming-soon';

const ProfileRoute = () => (
  <ComingSoon
    section="会員メニュー"
    title="プロフィール"
    description="プロフィールの編集や写真の登録（最大6枚）ができる機能を準備しています。"
  />
);

export default ProfileRoute;
