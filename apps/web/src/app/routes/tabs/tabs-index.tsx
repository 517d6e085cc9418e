import { ComingSoon } from '@/components/coming-soon';

const TabsIndexRoute = () => (
  <ComingSoon
    section="会員メニュー"
    title="会員メニュー"
    description="スケジュール、いいね、チャット、大会、プロフィールの各機能をまとめた会員メニューを準備しています。"
  />
);

export default TabsIndexRoute;
