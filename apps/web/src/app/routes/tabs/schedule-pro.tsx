import { Link, useParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { ProLessons } from '@/features/schedule/components/pro-lessons';
import {
  BuyerNotice,
  useIsBuyer,
} from '@/features/auth/components/buyer-notice';
import { useGetLessonMembersQuery } from '@/features/schedule/schedule-api';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/styles/booking.css';

/** `#/tabs/schedule/pro/:proId`: a pro's open lessons, to reserve or cancel. */
const ScheduleProRoute = () => {
  const { proId = '' } = useParams();
  const user = useAppSelector(selectAuthUser);
  const { data } = useGetLessonMembersQuery([proId]);
  const pro = data?.[0];
  const isBuyer = useIsBuyer();
  const name = pro ? `${pro.userName}プロ` : 'プロ';
  useDocumentTitle(`${name}のスケジュール`);
  return (
    <>
      <PageHeader
        section="スケジュール"
        sectionTo="/tabs/schedule"
        subtitle={name}
        title={`${name}のスケジュール`}
        titleRight="SCHEDULE"
      />
      <div className="container section schedule-page">
        <p className="lessons-back">
          <Link to={`/tabs/likes/pro/${proId}`}>‹ プロフィールを見る</Link>
        </p>
        {isBuyer && <BuyerNotice />}
        {user && (
          <ProLessons
            proId={proId}
            userId={user.id}
            canReserve={user.type === 'amature'}
            canCallOff={user.type === 'admin'}
          />
        )}
      </div>
    </>
  );
};

export default ScheduleProRoute;
