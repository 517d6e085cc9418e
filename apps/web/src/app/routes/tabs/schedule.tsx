import { ComingSoon } from '@/components/coming-soon';

const ScheduleRoute = () => (
  <ComingSoon
    section="会員メニュー"
    title="スケジュール"
    description="プロ会員はラウンドレッスンの公開と管理、アマチュア会員は予約したレッスンの確認ができるスケジュール機能を準備しています。"
  />
);

export default ScheduleRoute;
