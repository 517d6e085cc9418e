import { MemberTabHeader } from '@/components/member-tab-header';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { useGetUserQuery } from '@/features/profile/profile-api';
import { LessonReview } from '@/features/reviews/components/lesson-review';
import { AmateurReservations } from '@/features/schedule/components/amateur-reservations';
import { ProSchedule } from '@/features/schedule/components/pro-schedule';
import { VerificationBanner } from '@/features/schedule/components/verification-banner';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { BuyerNotice } from '@/features/auth/components/buyer-notice';
import { isBuyer } from '@/features/auth/buyer-mode';
import { todayInJapan } from '@/lib/format';
import '@/styles/booking.css';
import '@/styles/reviews.css';

/** A pro manages their lessons; everyone else sees what they reserved. */
const ScheduleRoute = () => {
  useDocumentTitle('スケジュール');
  const user = useAppSelector(selectAuthUser);
  const isPro = user?.type === 'pro';
  // The profile as it is now: an admin may have verified the pro meanwhile.
  const { data: profile } = useGetUserQuery(user?.id ?? '', { skip: !isPro });
  return (
    <>
      <MemberTabHeader path="/tabs/schedule" />
      <div className="container section schedule-page">
        {isBuyer(user) ? (
          <BuyerNotice lead="予約の機能はご利用いただけません" showSearchLink />
        ) : (
          user &&
          (isPro ? (
            <>
              <VerificationBanner user={profile} />
              <ProSchedule proId={user.id} today={todayInJapan()} />
            </>
          ) : (
            <AmateurReservations
              userId={user.id}
              reviewSlot={
                user.type === 'amature'
                  ? (s, lessonLabel) => (
                      <LessonReview
                        scheduleId={s.id}
                        proId={s.proId}
                        date={s.date}
                        userId={user.id}
                        lessonLabel={lessonLabel}
                      />
                    )
                  : undefined
              }
            />
          ))
        )}
      </div>
    </>
  );
};

export default ScheduleRoute;
