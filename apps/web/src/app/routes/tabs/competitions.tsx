import { ComingSoon } from '@/components/coming-soon';

const CompetitionsTabRoute = () => (
  <ComingSoon
    section="会員メニュー"
    title="大会"
    description="会員向けの大会情報とエントリー状況の確認機能を準備しています。公開中の大会日程と結果は「イベント日程・結果」ページでご覧いただけます。"
  />
);

export default CompetitionsTabRoute;
