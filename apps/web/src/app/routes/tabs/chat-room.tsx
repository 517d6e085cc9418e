import { ComingSoon } from '@/components/coming-soon';

const ChatRoomRoute = () => (
  <ComingSoon
    section="会員メニュー"
    title="チャット"
    description="ラウンドレッスンごとに、プロと参加者が連絡を取り合えるチャット機能を準備しています。"
  />
);

export default ChatRoomRoute;
