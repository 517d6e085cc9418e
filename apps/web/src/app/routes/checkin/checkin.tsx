import { ComingSoon } from '@/components/coming-soon';

const CheckinRoute = () => (
  <ComingSoon
    section="チェックイン"
    title="チェックイン"
    description="法人購買システムからのチェックイン機能を準備しています。"
  />
);

export default CheckinRoute;
