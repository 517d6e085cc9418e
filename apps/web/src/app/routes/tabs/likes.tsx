import { ComingSoon } from '@/components/coming-soon';

const LikesRoute = () => (
  <ComingSoon
    section="会員メニュー"
    title="いいね"
    description="お気に入りのプロへの「いいね」や、エリア・料金・日程によるプロ検索の機能を準備しています。"
  />
);

export default LikesRoute;
