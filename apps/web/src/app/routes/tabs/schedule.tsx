import { PageHeader } from '@/components/page-header';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { AmateurReservations } from '@/features/schedule/components/amateur-reservations';
import { ProSchedule } from '@/features/schedule/components/pro-schedule';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { BuyerNotice } from '@/features/auth/components/buyer-notice';
import { isBuyer } from '@/features/auth/buyer-mode';
import { todayInJapan } from '@/lib/format';
import '@/styles/booking.css';

/** A pro manages their lessons; everyone else sees what they reserved. */
const ScheduleRoute = () => {
  useDocumentTitle('スケジュール');
  const user = useAppSelector(selectAuthUser);
  const isPro = user?.type === 'pro';
  return (
    <>
      <PageHeader
        section="会員メニュー"
        title="スケジュール"
        titleRight="SCHEDULE"
        description={
          isPro
            ? 'ラウンドレッスンの登録・編集と、日ごとのラウンド状況の設定ができます。'
            : '予約中のラウンドレッスンの確認とキャンセル、キャンセル待ち、カレンダーへの追加、レッスンのチャットができます。'
        }
      />
      <div className="container section schedule-page">
        {isBuyer(user) ? (
          <BuyerNotice lead="予約の機能はご利用いただけません" showSearchLink />
        ) : (
          user &&
          (isPro ? (
            <ProSchedule proId={user.id} today={todayInJapan()} />
          ) : (
            <AmateurReservations userId={user.id} />
          ))
        )}
      </div>
    </>
  );
};

export default ScheduleRoute;
